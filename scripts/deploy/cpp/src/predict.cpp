// gluonzoo-predict MODEL.onnx IMAGE... [--backend ort|opencv] [--topk 5]: one JSON line per image, the top-k of a
// classifier; with --detect [--threshold 0.5], the objects a detector finds, as POST /detect answers; with
// --segment, a segmenter's map as POST /segment makes it, summed up: {"image", "width", "height", "classes": {id:
// pixel count}} (the ids present only); with --recognize, an action recognizer's top-k for each video file, as POST
// /recognize answers.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "model.hpp"

namespace {
// the file's bytes; BadInput for a missing file or a directory (which std::ifstream opens and reads as empty)
std::string read_file(const std::string &path) {
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw gz::BadInput("no such file");
  if (!std::filesystem::is_regular_file(status)) throw gz::BadInput("not a file (a directory?)");
  std::ifstream f(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (!f.is_open() || f.bad()) throw gz::BadInput("cannot read it");
  return bytes;
}

const char *kUsage = "usage: gluonzoo-predict MODEL.onnx IMAGE... [--backend ort|opencv] [--topk 5] "
                     "[--detect [--threshold 0.5] | --segment | --recognize]\n";
}

int main(int argc, char **argv) {
  std::string model, backend = "ort";
  int topk = 5;
  bool detect = false, segment = false, recognize = false;
  double threshold = 0.5;
  std::vector<std::string> images;
  try {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a == "--backend" && i + 1 < argc) backend = argv[++i];
      else if (a == "--topk" && i + 1 < argc) topk = std::stoi(argv[++i]);
      else if (a == "--detect") detect = true;
      else if (a == "--segment") segment = true;
      else if (a == "--recognize") recognize = true;
      else if (a == "--threshold" && i + 1 < argc) threshold = gz::parse_threshold(argv[++i]);
      else if (a[0] == '-') { std::cerr << kUsage; return 2; }
      else if (model.empty()) model = a;
      else images.push_back(a);
    }
  } catch (const std::exception &e) {
    std::cerr << "gluonzoo-predict: error: " << e.what() << "\n" << kUsage;
    return 2;
  }
  if (model.empty() || images.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  try {
    gz::Model m(model, backend);
    const gz::Meta &meta = m.meta();
    if (detect != meta.detector() || segment != meta.segmenter() || recognize != meta.recognizer()) {
      std::cerr << "gluonzoo-predict: error: " << meta.model << " is a model for " << meta.task << ": use "
                << (meta.detector() ? "--detect" : meta.segmenter() ? "--segment" : meta.recognizer() ? "--recognize"
                    : "none of --detect, --segment, --recognize")
                << "\n";
      return 1;
    }
    int failures = 0;
    for (auto &path : images) {
      try {
        std::string bytes = read_file(path);
        std::cout << (detect    ? gz::to_json(m.detect(bytes, threshold))
                      : segment ? gz::to_json(path, m.segment(bytes))
                      : recognize ? gz::to_json(m, m.recognize(bytes, topk))
                                : gz::to_json(m, m.classify(bytes, topk)))
                  << std::endl;
      } catch (const gz::BadInput &e) {  // one line each: unreadable, not an image / video, an image bomb (TooLarge)
        std::cerr << "gluonzoo-predict: error: " << path << ": " << e.what() << "\n";
        ++failures;
      }
    }
    return failures ? 1 : 0;
  } catch (const std::exception &e) {
    std::cerr << "gluonzoo-predict: error: " << e.what() << "\n";
    return 1;
  }
}
