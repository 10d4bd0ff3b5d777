#include "model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <numeric>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>
#include <onnxruntime_cxx_api.h>
#include <opencv2/dnn.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "image_header.hpp"
#include "onnx_meta.hpp"

namespace gz {
namespace {
std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep)) out.push_back(item);
  return out;
}

std::vector<float> floats(const std::string &s) {
  std::vector<float> out;
  for (auto &x : split(s, ',')) out.push_back(std::stof(x));
  return out;
}

class OrtBackend : public Backend {
 public:
  OrtBackend(const std::string &path, int threads, std::map<std::string, std::string> *props)
      : env_(ORT_LOGGING_LEVEL_WARNING, "gluonzoo") {
    Ort::SessionOptions opts;
    opts.SetIntraOpNumThreads(threads);
    opts.SetInterOpNumThreads(1);
    session_ = std::make_unique<Ort::Session>(env_, path.c_str(), opts);
    Ort::AllocatorWithDefaultOptions alloc;
    input_ = session_->GetInputNameAllocated(0, alloc).get();
    for (size_t i = 0; i < session_->GetOutputCount(); ++i)
      outputs_.push_back(session_->GetOutputNameAllocated(i, alloc).get());
    // ONNX Runtime's own metadata API: the same props the Python exporter wrote
    Ort::ModelMetadata md = session_->GetModelMetadata();
    for (auto &key : md.GetCustomMetadataMapKeysAllocated(alloc)) {
      (*props)[key.get()] = md.LookupCustomMetadataMapAllocated(key.get(), alloc).get();
    }
  }
  std::vector<Tensor> run(const cv::Mat &input) override {
    auto mem = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);
    std::vector<int64_t> shape(input.size.p, input.size.p + input.dims);
    const char *in_names[] = {input_.c_str()};
    std::vector<const char *> out_names;
    for (auto &n : outputs_) out_names.push_back(n.c_str());
    Ort::Value x = input.depth() == CV_8U
        ? Ort::Value::CreateTensor<uint8_t>(mem, const_cast<uint8_t *>(input.ptr<uint8_t>()), input.total(),
                                            shape.data(), shape.size())
        : Ort::Value::CreateTensor<float>(mem, const_cast<float *>(input.ptr<float>()), input.total(),
                                          shape.data(), shape.size());
    auto outs = session_->Run(Ort::RunOptions{nullptr}, in_names, &x, 1, out_names.data(), out_names.size());
    std::vector<Tensor> result;
    for (auto &out : outs) {
      auto info = out.GetTensorTypeAndShapeInfo();
      const float *p = out.GetTensorData<float>();
      result.push_back({info.GetShape(), std::vector<float>(p, p + info.GetElementCount())});
    }
    return result;
  }
  std::string name() const override { return "onnxruntime " + std::string(Ort::GetVersionString()); }

 private:
  Ort::Env env_;
  std::unique_ptr<Ort::Session> session_;
  std::string input_;
  std::vector<std::string> outputs_;
};

class OpenCvBackend : public Backend {
 public:
  OpenCvBackend(const std::string &path, int threads) : net_(cv::dnn::readNetFromONNX(path)) {
    cv::setNumThreads(threads);
    net_.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
    net_.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
  }
  std::vector<Tensor> run(const cv::Mat &input) override {
    std::lock_guard<std::mutex> lock(mu_);  // cv::dnn::Net is not thread-safe; the HTTP server is
    net_.setInput(input);
    // every output, in layer order, which is the graph's output order for our exports (a segmenter's main scores
    // come before its auxiliary head's); a bare forward() would give the last layer's only
    std::vector<cv::Mat> outs;
    net_.forward(outs, net_.getUnconnectedOutLayersNames());
    std::vector<Tensor> result;
    for (auto &out : outs) {
      cv::Mat flat = out.reshape(1, 1);
      result.push_back({std::vector<int64_t>(out.size.p, out.size.p + out.dims),
                        std::vector<float>(flat.ptr<float>(), flat.ptr<float>() + flat.total())});
    }
    return result;
  }
  std::string name() const override { return "opencv-dnn " + std::string(CV_VERSION); }

 private:
  cv::dnn::Net net_;
  std::mutex mu_;
};
}  // namespace

// What a request for the wrong task's endpoint gets: the one this model answers.
BadInput wrong_task(const Meta &m) {
  std::string where = m.detector()     ? "/detect (CLI: --detect)"
                      : m.segmenter()  ? "/segment (CLI: --segment)"
                      : m.recognizer() ? "/recognize (CLI: --recognize)"
                                       : "/predict (CLI: without --detect/--segment/--recognize)";
  return BadInput(m.model + " is a model for " + m.task + ": POST the " + (m.recognizer() ? "video" : "image") +
                  " to " + where);
}

Meta Meta::from_props(const std::map<std::string, std::string> &p) {
  Meta m;
  auto get = [&](const std::string &k, const std::string &d = "") {
    auto it = p.find("gluonzoo." + k);
    return it == p.end() ? d : it->second;
  };
  if (get("model").empty()) throw std::runtime_error("not a gluonzoo export: no gluonzoo.model metadata");
  m.model = get("model");
  m.weights = get("weights");
  m.sha1 = get("sha1");
  auto ints = [](const std::string &v) {
    std::vector<int> out;
    for (auto &x : split(v, ',')) out.push_back(std::stoi(x));
    return out;
  };
  // a record without resize/crop (e.g. CIFAR's 32x32): the graph's own input size, short side resized to it
  std::vector<int> shape = get("input_shape").empty() ? std::vector<int>{} : ints(get("input_shape"));
  bool nhwc = get("preprocess_in_graph") == "1";
  if (shape.size() == 4) m.crop = nhwc ? std::vector<int>{shape[1], shape[2]} : std::vector<int>{shape[2], shape[3]};
  if (!get("preprocess.crop").empty()) m.crop = ints(get("preprocess.crop"));
  if (m.crop.size() == 1) m.crop.push_back(m.crop[0]);
  m.resize = get("preprocess.resize").empty() ? std::vector<int>{m.crop[0]} : ints(get("preprocess.resize"));
  m.interp = get("preprocess.interp") == "None" ? "" : get("preprocess.interp");
  if (!get("preprocess.mean").empty()) m.mean = floats(get("preprocess.mean"));
  if (!get("preprocess.std").empty()) m.std = floats(get("preprocess.std"));
  if (!get("preprocess.scale").empty()) m.scale = std::stof(get("preprocess.scale"));
  if (!get("preprocess.color").empty()) m.color = get("preprocess.color");
  if (m.color != "RGB" && m.color != "BGR" && m.color != "grey")
    throw std::runtime_error("unknown gluonzoo.preprocess.color '" + m.color + "': RGB, BGR or grey");
  size_t channels = m.color == "grey" ? 1 : 3;
  if (m.mean.size() != channels || m.std.size() != channels)
    throw std::runtime_error("gluonzoo.preprocess mean/std do not have one value per channel of " + m.color);
  m.in_graph = get("preprocess_in_graph") == "1";
  m.classes = split(get("classes"), '\n');
  if (!get("task").empty()) m.task = get("task");
  if (m.segmenter()) {  // the graph's fixed size (its upsampling is fixed to it), the whole picture resized to it
    if (shape.size() != 4) throw std::runtime_error("a segmentation export needs gluonzoo.input_shape N,C,H,W");
    if (!get("preprocess.crop").empty())
      throw std::runtime_error("segmentation preprocess with a crop: the services label every pixel of the picture");
    m.resize = m.crop = nhwc ? std::vector<int>{shape[1], shape[2]} : std::vector<int>{shape[2], shape[3]};
    if (m.classes.size() > 256) throw std::runtime_error("over 256 classes: an 8-bit PNG cannot hold the class ids");
  }
  if (m.recognizer()) {
    if (shape.size() == 5) m.crop = {shape[3], shape[4]};  // (N, 3, T, H, W) clips
    if (!get("preprocess.crop").empty()) m.crop = ints(get("preprocess.crop"));
    if (m.crop.size() == 1) m.crop.push_back(m.crop[0]);
    if (get("preprocess.resize").empty()) m.resize.clear();  // as image_eval: the frames' own size, then the crop
    if (!get("preprocess.frames").empty()) m.frames = std::stoi(get("preprocess.frames"));
    if (!get("preprocess.step").empty()) m.step = std::stoi(get("preprocess.step"));
    if (!get("preprocess.segments").empty()) m.segments = std::stoi(get("preprocess.segments"));
    if (!get("preprocess.slowfast").empty()) m.slowfast = ints(get("preprocess.slowfast"));
    if (m.frames < 0 || m.step < 1 || m.segments < 1 || (!m.slowfast.empty() && m.slowfast.size() != 2))
      throw std::runtime_error("bad gluonzoo.preprocess frames/step/segments/slowfast for an action recognizer");
    if (m.in_graph) throw std::runtime_error("an action recognizer's export takes normalized float clips: export "
                                             "it without preprocess=True");
  }
  if (m.detector()) {
    if (m.resize.size() != 2)  // detect() maps boxes back through an exact resize to the graph's fixed size
      throw std::runtime_error("detector preprocess resizes the short side (variable image size); the services "
                               "feed the graph's fixed input size, so they take detectors with an exact "
                               "(height, width) resize only");
    m.crop = m.resize;  // detectors see the whole picture: a resize, no crop
    if (!get("nms.in_graph").empty()) {
      m.nms.in_graph = get("nms.in_graph") == "1";
      m.nms.per_class = get("nms.per_class", "1") == "1";
      m.nms.iou_threshold = std::stof(get("nms.iou_threshold"));
      m.nms.valid_threshold = std::stof(get("nms.valid_threshold"));
      m.nms.topk = std::stoi(get("nms.topk"));
      m.nms.post_nms = std::stoi(get("nms.post_nms"));
    }
  }
  return m;
}

cv::Mat decode_rgb(const std::string &bytes) {
  if (bytes.empty()) throw BadInput("empty body: POST the bytes of a JPEG/PNG/BMP image");
  // libjpeg decodes a truncated JPEG into a gray-padded image with only a warning: refuse it instead
  if (bytes.size() >= 2 && uint8_t(bytes[0]) == 0xFF && uint8_t(bytes[1]) == 0xD8) {
    size_t tail = bytes.size() > 64 ? bytes.size() - 64 : 0;
    if (bytes.find("\xFF\xD9", tail) == std::string::npos)
      throw BadInput("truncated JPEG: no end-of-image marker");
  }
  if (auto size = image_size(bytes); size && size->width * size->height > max_pixels())
    throw TooLarge("image claims " + std::to_string(size->width) + "x" + std::to_string(size->height) +
                   " pixels, over the " + std::to_string(max_pixels()) + "-pixel limit (an image bomb?)");
  // decoded in place: no copy of a body that may be 10 MB
  cv::Mat buf(1, int(bytes.size()), CV_8U, const_cast<char *>(bytes.data()));
  cv::Mat bgr = cv::imdecode(buf, cv::IMREAD_COLOR);
  if (bgr.empty()) throw BadInput("body is not an image OpenCV can decode (JPEG/PNG/BMP/...)");
  cv::Mat rgb;
  cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
  return rgb;
}

cv::Mat preprocess(const cv::Mat &decoded_rgb, const Meta &m) {
  cv::Mat rgb = decoded_rgb;  // in the net's color: grey is OpenCV's luma (0.299 R + 0.587 G + 0.114 B), as Python's
  if (m.color == "grey") cv::cvtColor(decoded_rgb, rgb, cv::COLOR_RGB2GRAY);
  if (m.color == "BGR") cv::cvtColor(decoded_rgb, rgb, cv::COLOR_RGB2BGR);
  const int C = rgb.channels();
  int h = rgb.rows, w = rgb.cols, nh, nw;
  if (m.resize.empty()) {  // no resize (an action recognizer's record without one)
    nh = h;
    nw = w;
  } else if (m.resize.size() == 1) {  // short side; the long one truncated, as MXNet's Resize(keep_ratio) does
    int s = m.resize[0];
    if (h <= w) { nh = s; nw = int(double(w) * s / h); }
    else { nw = s; nh = int(double(h) * s / w); }
  } else {
    nh = m.resize[0];
    nw = m.resize[1];
  }
  static const std::map<std::string, int> kInterp{{"area", cv::INTER_AREA}, {"linear", cv::INTER_LINEAR},
                                                   {"cubic", cv::INTER_CUBIC}, {"nearest", cv::INTER_NEAREST}};
  int flag = m.interp.empty() ? (int64_t(nh) * nw < int64_t(h) * w ? cv::INTER_AREA : cv::INTER_LINEAR)
                              : kInterp.at(m.interp);
  cv::Mat resized = rgb;
  if (nh != h || nw != w) cv::resize(rgb, resized, cv::Size(nw, nh), 0, 0, flag);
  int ch = m.crop[0], cw = m.crop[1];
  if (nh < ch || nw < cw) throw BadInput("image too small to crop after resizing");
  cv::Mat crop = resized(cv::Rect((nw - cw) / 2, (nh - ch) / 2, cw, ch)).clone();
  if (m.in_graph) {  // 1xHxWxC uint8, the graph normalizes
    int shape[] = {1, ch, cw, C};
    return cv::Mat(4, shape, CV_8U, crop.data).clone();
  }
  int shape[] = {1, C, ch, cw};
  cv::Mat blob(4, shape, CV_32F);
  for (int c = 0; c < C; ++c) {
    float *dst = blob.ptr<float>(0, c);
    for (int y = 0; y < ch; ++y) {
      const uint8_t *row = crop.ptr<uint8_t>(y);
      for (int x = 0; x < cw; ++x) {
        float v = float(row[C * x + c]) * m.scale;
        dst[y * cw + x] = (v - m.mean[c]) / m.std[c];
      }
    }
  }
  return blob;
}

Model::Model(const std::string &path, const std::string &backend, int threads) {
  std::map<std::string, std::string> props;
  if (backend == "ort") {
    backend_ = std::make_unique<OrtBackend>(path, threads, &props);
    meta_ = Meta::from_props(props);
    return;
  }
  if (backend != "opencv") throw std::runtime_error("unknown backend '" + backend + "': ort or opencv");
  meta_ = Meta::from_props(read_onnx_metadata(path));  // what OpenCV cannot run is refused before it parses it
  if (meta_.recognizer() && meta_.clip_model())
    throw std::runtime_error("a clip model's graph (3D convolution and pooling) does not run in OpenCV 4.6 DNN (its "
                             "3D pooling takes no 3D pads): use --backend ort; TSN frame models run on both");
  if (meta_.detector() && meta_.nms.in_graph)
    throw std::runtime_error("this export has its NMS in the graph, which OpenCV 4.6 DNN cannot run: export with "
                             "target='opencv' (the service then runs the NMS), or use --backend ort");
  backend_ = std::make_unique<OpenCvBackend>(path, threads);
}

std::vector<Scored> Model::classify(const std::string &bytes, int topk) const {
  if (meta_.detector() || meta_.segmenter() || meta_.recognizer()) throw wrong_task(meta_);
  cv::Mat x = preprocess(decode_rgb(bytes), meta_);
  std::vector<float> scores = backend_->run(x).at(0).data;
  return top_of(std::vector<double>(scores.begin(), scores.end()), topk, meta_.classes);
}

std::vector<Scored> top_of(const std::vector<double> &logits, int topk, const std::vector<std::string> &classes) {
  double mx = *std::max_element(logits.begin(), logits.end()), sum = 0;
  std::vector<double> p(logits.size());
  for (size_t i = 0; i < p.size(); ++i) sum += p[i] = std::exp(double(logits[i]) - mx);
  for (auto &v : p) v /= sum;
  std::vector<int> idx(p.size());
  std::iota(idx.begin(), idx.end(), 0);
  topk = std::min<int>(topk, int(idx.size()));
  std::partial_sort(idx.begin(), idx.begin() + topk, idx.end(), [&](int a, int b) { return p[a] > p[b]; });
  std::vector<Scored> out;
  for (int k = 0; k < topk; ++k) {
    int i = idx[k];
    out.push_back({i, i < int(classes.size()) ? classes[i] : std::to_string(i), p[i]});
  }
  return out;
}

std::vector<int> suppress(const float *rows, int count, const Nms &nms) {
  // MXNet's box_nms: valid rows (score > valid threshold, id not -1), best first with ties in row order, the topk
  // of them; then greedy suppression per class (ids as ints) at IoU > threshold, without +1 widths
  std::vector<int> order;
  for (int i = 0; i < count; ++i)
    if (rows[6 * i + 1] > nms.valid_threshold && rows[6 * i] != -1.0f) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return rows[6 * a + 1] > rows[6 * b + 1]; });
  if (nms.topk > 0 && int(order.size()) > nms.topk) order.resize(nms.topk);
  std::map<int, std::vector<int>> by_class;
  std::vector<int> kept;
  for (int i : order) {
    const float *r = rows + 6 * i;
    if (r[4] - r[2] <= 0 || r[5] - r[3] <= 0) {  // MXNet's IoU is 0 for a box without area: never suppressed
      kept.push_back(i);
      continue;
    }
    by_class[nms.per_class ? int(r[0]) : 0].push_back(i);
  }
  for (auto &[cls, members] : by_class) {
    std::vector<cv::Rect2d> boxes;
    std::vector<float> scores;
    for (int i : members) {
      const float *r = rows + 6 * i;
      boxes.emplace_back(r[2], r[3], double(r[4]) - r[2], double(r[5]) - r[3]);
      scores.push_back(r[1]);
    }
    std::vector<int> picked;  // NMSBoxes keeps scores over its threshold, which must be >= 0: every row passed it
    cv::dnn::NMSBoxes(boxes, scores, std::max(nms.valid_threshold, 0.0f), nms.iou_threshold, picked);
    for (int k : picked) kept.push_back(members[k]);
  }
  std::map<int, int> rank;
  for (size_t k = 0; k < order.size(); ++k) rank[order[k]] = int(k);
  std::sort(kept.begin(), kept.end(), [&](int a, int b) { return rank[a] < rank[b]; });
  if (nms.post_nms > 0 && int(kept.size()) > nms.post_nms) kept.resize(nms.post_nms);
  return kept;
}

std::vector<Detection> Model::detect(const std::string &bytes, double threshold) const {
  if (!meta_.detector()) throw wrong_task(meta_);
  cv::Mat rgb = decode_rgb(bytes);
  std::vector<Tensor> outs = backend_->run(preprocess(rgb, meta_));
  // (id, score, x1, y1, x2, y2) of the final detections, best first
  std::vector<float> rows;
  if (meta_.nms.in_graph) {  // (ids (1, K, 1), scores (1, K, 1), boxes (1, K, 4)), -1 rows at the end
    if (outs.size() != 3) throw std::runtime_error("a detector graph returns (ids, scores, boxes)");
    size_t k = outs[0].data.size();
    for (size_t i = 0; i < k; ++i) {
      rows.insert(rows.end(), {outs[0].data[i], outs[1].data[i]});
      rows.insert(rows.end(), outs[2].data.begin() + 4 * i, outs[2].data.begin() + 4 * i + 4);
    }
  } else {  // candidate rows (1, N, 6)
    const Tensor &cand = outs.at(0);
    if (cand.shape.size() != 3 || cand.shape[2] != 6) throw std::runtime_error("candidate rows are not (1, N, 6)");
    for (int i : suppress(cand.data.data(), int(cand.shape[1]), meta_.nms))
      rows.insert(rows.end(), cand.data.begin() + 6 * i, cand.data.begin() + 6 * i + 6);
  }
  // boxes back through the resize: x and y apart (gluonzoo.vision.inference.detect)
  double sx = double(rgb.cols) / meta_.crop[1], sy = double(rgb.rows) / meta_.crop[0];
  std::vector<Detection> objects;
  for (size_t i = 0; i + 6 <= rows.size(); i += 6) {
    int id = int(rows[i]);
    if (rows[i] < 0 || double(rows[i + 1]) < threshold) continue;
    objects.push_back({id, id < int(meta_.classes.size()) ? meta_.classes[id] : std::to_string(id), rows[i + 1],
                       {rows[i + 2] * sx, rows[i + 3] * sy, rows[i + 4] * sx, rows[i + 5] * sy}});
  }
  return objects;
}

double parse_threshold(const std::string &value) {
  static const std::regex kDecimal("[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?");
  double t = std::regex_match(value, kDecimal) ? std::strtod(value.c_str(), nullptr) : NAN;
  if (!(t >= 0 && t <= 1)) throw BadInput("threshold must be a number from 0 to 1, got '" + value + "'");
  return t;
}

std::string to_json(const Model &c, const std::vector<Scored> &top) {
  nlohmann::json j;
  j["model"] = c.meta().model;
  j["backend"] = c.backend();
  j["topk"] = nlohmann::json::array();
  for (auto &s : top) j["topk"].push_back({{"index", s.index}, {"label", s.label}, {"prob", s.prob}});
  return j.dump();
}

std::string to_json(const std::vector<Detection> &objects) {
  nlohmann::json j = nlohmann::json::array();
  for (auto &d : objects)
    j.push_back({{"class", d.label}, {"score", d.score}, {"box", {d.box[0], d.box[1], d.box[2], d.box[3]}}});
  return j.dump();
}

}  // namespace gz
