#include "onnx_meta.hpp"

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace gz {
namespace {
struct Reader {
  const uint8_t *p, *end;
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p >= end) throw std::runtime_error("truncated varint");
      uint8_t b = *p++;
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    throw std::runtime_error("bad varint");
  }
  // returns the [begin, end) of a length-delimited field
  std::pair<const uint8_t *, const uint8_t *> bytes() {
    uint64_t n = varint();
    if (n > uint64_t(end - p)) throw std::runtime_error("field past end of file");
    const uint8_t *b = p;
    p += n;
    return {b, p};
  }
  void skip(int wire) {
    switch (wire) {
      case 0: varint(); break;
      case 1: p += 8; break;
      case 2: bytes(); break;
      case 5: p += 4; break;
      default: throw std::runtime_error("unsupported wire type");
    }
    if (p > end) throw std::runtime_error("field past end of file");
  }
};
}  // namespace

std::map<std::string, std::string> read_onnx_metadata(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  std::vector<uint8_t> data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  Reader r{data.data(), data.data() + data.size()};
  std::map<std::string, std::string> out;
  while (r.p < r.end) {
    uint64_t tag = r.varint();
    int field = int(tag >> 3), wire = int(tag & 7);
    if (field == 14 && wire == 2) {
      auto [b, e] = r.bytes();
      Reader entry{b, e};
      std::string key, value;
      while (entry.p < entry.end) {
        uint64_t t = entry.varint();
        if ((t & 7) == 2 && ((t >> 3) == 1 || (t >> 3) == 2)) {
          auto [sb, se] = entry.bytes();
          ((t >> 3) == 1 ? key : value).assign(reinterpret_cast<const char *>(sb), se - sb);
        } else {
          entry.skip(int(t & 7));
        }
      }
      out[key] = value;
    } else {
      r.skip(wire);
    }
  }
  return out;
}
}  // namespace gz
