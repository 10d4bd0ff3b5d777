#include "image_header.hpp"

#include <cstdlib>
#include <cstring>

namespace gz {
namespace {
uint64_t be16(const uint8_t *p) { return uint64_t(p[0]) << 8 | p[1]; }
uint64_t be32(const uint8_t *p) { return be16(p) << 16 | be16(p + 2); }
uint64_t le16(const uint8_t *p) { return uint64_t(p[1]) << 8 | p[0]; }
uint64_t le24(const uint8_t *p) { return uint64_t(p[2]) << 16 | le16(p); }
uint64_t le32(const uint8_t *p) { return uint64_t(p[3]) << 24 | le24(p); }

// Walk the marker segments to the frame header: SOF0..SOF15 but DHT (C4), JPG (C8) and DAC (CC).
std::optional<ImageSize> jpeg_size(const uint8_t *d, size_t n) {
  size_t i = 2;
  while (i + 4 <= n) {
    if (d[i] != 0xFF) return std::nullopt;
    uint8_t marker = d[i + 1];
    if (marker == 0xFF) {  // fill byte
      ++i;
      continue;
    }
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {  // standalone markers: no length
      i += 2;
      continue;
    }
    if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC && i + 9 <= n)
      return ImageSize{be16(d + i + 7), be16(d + i + 5)};  // precision, height, width
    i += 2 + be16(d + i + 2);
  }
  return std::nullopt;
}
}  // namespace

std::optional<ImageSize> image_size(const std::string &bytes) {
  const auto *d = reinterpret_cast<const uint8_t *>(bytes.data());
  const size_t n = bytes.size();
  auto starts = [&](const char *magic, size_t at = 0) {
    size_t len = std::strlen(magic);
    return n >= at + len && bytes.compare(at, len, magic) == 0;
  };
  if (starts("\x89PNG\r\n\x1a\n") && n >= 24) return ImageSize{be32(d + 16), be32(d + 20)};
  if ((starts("GIF87a") || starts("GIF89a")) && n >= 10) return ImageSize{le16(d + 6), le16(d + 8)};
  if (starts("BM") && n >= 26) {  // signed: a negative height means top-down rows
    auto w = int64_t(int32_t(le32(d + 18))), h = int64_t(int32_t(le32(d + 22)));
    return ImageSize{uint64_t(std::llabs(w)), uint64_t(std::llabs(h))};
  }
  if (starts("RIFF") && starts("WEBP", 8) && n >= 30) {
    if (starts("VP8 ", 12)) return ImageSize{le16(d + 26) & 0x3FFF, le16(d + 28) & 0x3FFF};
    if (starts("VP8L", 12)) {
      uint64_t bits = le32(d + 21);
      return ImageSize{(bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1};
    }
    if (starts("VP8X", 12)) return ImageSize{le24(d + 24) + 1, le24(d + 27) + 1};
    return std::nullopt;
  }
  if (n >= 2 && d[0] == 0xFF && d[1] == 0xD8) return jpeg_size(d, n);
  return std::nullopt;
}

uint64_t max_pixels() {
  static const uint64_t limit = [] {
    const char *env = std::getenv("GLUONZOO_MAX_PIXELS");
    return env && *env ? std::strtoull(env, nullptr, 10) : uint64_t(100'000'000);
  }();
  return limit;
}

}  // namespace gz
