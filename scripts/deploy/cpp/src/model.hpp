// One exported gluonzoo model, a classifier, an object detector or a semantic segmenter: its metadata (task,
// preprocessing, class names, NMS settings), the same preprocessing as gluonzoo.vision.transforms.image_eval, and a
// backend that runs the graph (ONNX Runtime or OpenCV DNN). A detector's graph either ends with its NMS (ONNX
// Runtime) or returns the candidate rows before it (an export for OpenCV, whose DNN has no NonMaxSuppression layer):
// then NMS runs here, per class with cv::dnn::NMSBoxes, as MXNet's box_nms does.
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
// An image whose header claims more pixels than max_pixels(): an HTTP 413.
struct TooLarge : BadInput {
  using BadInput::BadInput;
};

// The NMS a detector export's metadata describes (gluonzoo.nms.*).
struct Nms {
  bool in_graph = true;   // the graph's outputs are the final (ids, scores, boxes)
  bool per_class = true;  // suppress within a class only (else across classes)
  float iou_threshold = 0.45f, valid_threshold = 0.01f;
  int topk = -1, post_nms = -1;  // rows kept before / after suppression (<= 0: all)
};

struct Meta {
  std::string model, weights, sha1, task = "image-classification";
  std::vector<int> resize{224}, crop{224, 224};  // resize: {short side}, {height, width} or {} (none); crop: {h, w}
  std::string interp;  // "", area, linear, cubic, nearest ("": area when shrinking, linear when growing)
  std::vector<float> mean{0.485f, 0.456f, 0.406f}, std{0.229f, 0.224f, 0.225f};
  float scale = 1.0f / 255.0f;
  std::string color = "RGB";  // what the net takes: RGB, BGR, or grey (one channel)
  bool in_graph = false;  // the graph takes raw uint8 NHWC pixels in `color` and normalizes itself
  std::vector<std::string> classes;
  Nms nms;
  // an action recognizer's test clip (gluonzoo.preprocess.frames/step/segments/slowfast): `segments` clips of
  // `frames` frames `step` apart (no frames: a frame model, TSN, one frame a segment); slowfast {fast, slow}
  int frames = 0, step = 1, segments = 1;
  std::vector<int> slowfast;
  bool detector() const { return task == "object-detection"; }
  bool segmenter() const { return task == "semantic-segmentation"; }
  bool recognizer() const { return task == "action-recognition"; }
  bool clip_model() const { return frames > 0 || !slowfast.empty(); }
  static Meta from_props(const std::map<std::string, std::string> &props);
};

struct Scored {
  int index;
  std::string label;
  double prob;
};

// One object: its class, score and corner box (x1, y1, x2, y2) in the original picture's pixels.
struct Detection {
  int index;
  std::string label;
  double score;
  double box[4];
};

struct Tensor {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

class Backend {
 public:
  virtual ~Backend() = default;
  // `input` is 1xCxHxW float (normalized) or 1xHxWxC uint8 (in_graph); returns every graph output
  virtual std::vector<Tensor> run(const cv::Mat &input) = 0;
  virtual std::string name() const = 0;
};

class Model {
 public:
  Model(const std::string &onnx_path, const std::string &backend, int threads = 1);
  // decode (JPEG/PNG/...) -> preprocess -> run -> softmax -> top-k. Throws BadInput for undecodable bytes, and
  // for a detector.
  std::vector<Scored> classify(const std::string &bytes, int topk) const;
  // decode -> preprocess -> run (-> NMS when not in the graph) -> the objects scoring >= threshold, best first,
  // boxes mapped back through the resize. Throws BadInput for undecodable bytes, and for a classifier.
  std::vector<Detection> detect(const std::string &bytes, double threshold) const;
  // decode -> resize to the graph's input size -> run -> the first output's class scores resized back to the
  // picture's size (MXNet's BilinearResize2D) -> argmax: one 8-bit class id a pixel (CV_8UC1, the picture's size).
  // Throws BadInput for undecodable bytes, and for a model that is not a segmenter.
  cv::Mat segment(const std::string &bytes) const;
  // a video file's bytes -> its test clip (clip_indices: the record's sampling, the centre crop; Python's views=(None, 1)), read
  // with OpenCV's VideoCapture -> every frame preprocessed -> run -> the mean of the output rows -> softmax ->
  // top-k. Throws BadInput for a body that is not a video, truncated, without frames, TooLarge for one over
  // max_video_frames(), BadInput for a model of another task.
  std::vector<Scored> recognize(const std::string &bytes, int topk) const;
  const Meta &meta() const { return meta_; }
  std::string backend() const { return backend_->name(); }

 private:
  Meta meta_;
  std::unique_ptr<Backend> backend_;
};

// softmax, then the top-k (index, label, probability) of one row of scores
std::vector<Scored> top_of(const std::vector<double> &logits, int topk, const std::vector<std::string> &classes);
// the frame ids of the test clip of an n-frame video, as gluonzoo.vision.inference.clip_indices gives them
std::vector<int> clip_indices(int n, const Meta &m);
// the most frames a video may have (GLUONZOO_MAX_VIDEO_FRAMES, default 10,000)
int max_video_frames();

// What a request for another task's endpoint gets (an HTTP 400): the endpoint this model answers.
BadInput wrong_task(const Meta &m);
// The picture in RGB. Throws BadInput for an empty, truncated (JPEG) or undecodable body, TooLarge for a header
// claiming more than max_pixels() (checked before decoding).
cv::Mat decode_rgb(const std::string &bytes);
// gluonzoo.vision.transforms.image_eval (functional.to_color / resize_short / resize / center_crop / normalize)
cv::Mat preprocess(const cv::Mat &rgb, const Meta &m);
// MXNet's box_nms on one image's candidate rows (id, score, x1, y1, x2, y2), then the post_nms cut: the indices of
// the kept rows, best first
std::vector<int> suppress(const float *rows, int count, const Nms &nms);
// MXNet's BilinearResize2D (align_corners, its float arithmetic) of (classes, h, w) scores to (H, W), fused with
// the argmax over classes (the first of equal scores): the class id of every output pixel
cv::Mat upsample_argmax(const float *scores, int classes, int h, int w, int H, int W);
// the PNG of an 8-bit, one-channel class-id map
std::string encode_png(const cv::Mat &ids);
// a detection threshold from a query string value: a number from 0 to 1, else BadInput
double parse_threshold(const std::string &value);
std::string to_json(const Model &m, const std::vector<Scored> &top);
std::string to_json(const std::vector<Detection> &objects);
// the CLI's line for a segmented picture: {"image", "width", "height", "classes": {id: pixel count}}
std::string to_json(const std::string &image, const cv::Mat &ids);

}  // namespace gz
