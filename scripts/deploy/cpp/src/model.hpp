// One exported gluonzoo classifier: its metadata (preprocessing, class names), the same preprocessing as
// gluonzoo.vision.transforms.image_eval, and a backend that runs the graph (ONNX Runtime or OpenCV DNN).
#pragma once
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace gz {

// A request that cannot be answered: an HTTP 4xx, one line saying what was wrong.
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Meta {
  std::string model, weights, sha1;
  std::vector<int> resize{224}, crop{224, 224};  // resize: {short side} or {height, width}; crop: {h, w}
  std::string interp;  // "", area, linear, cubic, nearest ("": area when shrinking, linear when growing)
  std::vector<float> mean{0.485f, 0.456f, 0.406f}, std{0.229f, 0.224f, 0.225f};
  float scale = 1.0f / 255.0f;
  std::string color = "RGB";  // what the net takes: RGB, BGR, or grey (one channel)
  bool in_graph = false;  // the graph takes raw uint8 NHWC pixels in `color` and normalizes itself
  std::vector<std::string> classes;
  static Meta from_props(const std::map<std::string, std::string> &props);
};

struct Scored {
  int index;
  std::string label;
  double prob;
};

class Backend {
 public:
  virtual ~Backend() = default;
  // `input` is 1xCxHxW float (normalized) or 1xHxWxC uint8 (in_graph); returns the logits of the one image
  virtual std::vector<float> run(const cv::Mat &input) = 0;
  virtual std::string name() const = 0;
};

class Classifier {
 public:
  Classifier(const std::string &onnx_path, const std::string &backend, int threads = 1);
  // decode (JPEG/PNG/...) -> preprocess -> run -> softmax -> top-k. Throws BadInput for undecodable bytes.
  std::vector<Scored> classify(const std::string &bytes, int topk) const;
  const Meta &meta() const { return meta_; }
  std::string backend() const { return backend_->name(); }

 private:
  Meta meta_;
  std::unique_ptr<Backend> backend_;
};

cv::Mat decode_rgb(const std::string &bytes);
// gluonzoo.vision.transforms.image_eval (functional.to_color / resize_short / resize / center_crop / normalize)
cv::Mat preprocess(const cv::Mat &rgb, const Meta &m);
std::string to_json(const Classifier &c, const std::vector<Scored> &top);

}  // namespace gz
