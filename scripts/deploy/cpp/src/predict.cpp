// gluonzoo-predict MODEL.onnx IMAGE... [--backend ort|opencv] [--topk 5]: one JSON line per image.
#include <fstream>
#include <iostream>
#include <sstream>

#include "model.hpp"

int main(int argc, char **argv) {
  std::string model, backend = "ort";
  int topk = 5;
  std::vector<std::string> images;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--backend" && i + 1 < argc) backend = argv[++i];
    else if (a == "--topk" && i + 1 < argc) topk = std::stoi(argv[++i]);
    else if (a[0] == '-') { std::cerr << "usage: gluonzoo-predict MODEL.onnx IMAGE... [--backend ort|opencv]\n"; return 2; }
    else if (model.empty()) model = a;
    else images.push_back(a);
  }
  if (model.empty() || images.empty()) {
    std::cerr << "usage: gluonzoo-predict MODEL.onnx IMAGE... [--backend ort|opencv] [--topk 5]\n";
    return 2;
  }
  try {
    gz::Classifier clf(model, backend);
    int failures = 0;
    for (auto &path : images) {
      std::ifstream f(path, std::ios::binary);
      std::stringstream ss;
      ss << f.rdbuf();
      try {
        if (!f) throw gz::BadInput("cannot read " + path);
        std::cout << gz::to_json(clf, clf.classify(ss.str(), topk)) << std::endl;
      } catch (const gz::BadInput &e) {
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
