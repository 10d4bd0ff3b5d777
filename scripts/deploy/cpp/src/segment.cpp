// A segmenter's map: the graph's class scores at its fixed size, resized back to the picture as
// gluonzoo.vision.inference.segment does, the argmax, a PNG of it (POST /segment) or its class counts (the CLI).
#include <map>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "model.hpp"

namespace gz {

cv::Mat Model::segment(const std::string &bytes) const {
  if (!meta_.segmenter()) throw wrong_task(meta_);
  cv::Mat rgb = decode_rgb(bytes);
  const Tensor scores = backend_->run(preprocess(rgb, meta_)).at(0);  // (1, classes, h, w); then the aux head's
  if (scores.shape.size() != 4 || scores.shape[0] != 1)
    throw std::runtime_error("segmentation scores are not (1, classes, h, w)");
  return upsample_argmax(scores.data.data(), int(scores.shape[1]), int(scores.shape[2]), int(scores.shape[3]),
                         rgb.rows, rgb.cols);
}

cv::Mat upsample_argmax(const float *s, int classes, int h, int w, int H, int W) {
  // gluonzoo.vision.inference.segment resizes the scores with BilinearResize2D's default align_corners=True (the
  // corners' pixel centres meet), which cv::resize cannot do and cv::remap does on a 1/32-pixel grid only. This is
  // MXNet's CPU kernel, float for float, so the same scores give the same map (at the same size it is a copy).
  const float ry = H > 1 ? float(h - 1) / float(H - 1) : 0.0f, rx = W > 1 ? float(w - 1) / float(W - 1) : 0.0f;
  const size_t plane = size_t(h) * w;
  std::vector<int> x0(W), xp(W);
  std::vector<float> lx0(W), lx1(W);
  for (int x = 0; x < W; ++x) {
    float fx = rx * float(x);
    x0[x] = int(fx);
    xp[x] = x0[x] < w - 1 ? 1 : 0;
    lx1[x] = fx - float(x0[x]);
    lx0[x] = 1.0f - lx1[x];
  }
  cv::Mat ids(H, W, CV_8UC1);
  for (int y = 0; y < H; ++y) {
    float fy = ry * float(y);
    int y0 = int(fy), yp = y0 < h - 1 ? w : 0;
    float ly1 = fy - float(y0), ly0 = 1.0f - ly1;
    uint8_t *row = ids.ptr<uint8_t>(y);
    for (int x = 0; x < W; ++x) {
      const float *p = s + size_t(y0) * w + x0[x];
      int best = 0;
      float top = 0;
      for (int c = 0; c < classes; ++c, p += plane) {
        float v = ly0 * (lx0[x] * p[0] + lx1[x] * p[xp[x]]) + ly1 * (lx0[x] * p[yp] + lx1[x] * p[yp + xp[x]]);
        if (c == 0 || v > top) { top = v; best = c; }  // the first of equal scores, as numpy's argmax
      }
      row[x] = uint8_t(best);
    }
  }
  return ids;
}

std::string encode_png(const cv::Mat &ids) {
  std::vector<uint8_t> png;
  cv::imencode(".png", ids, png);
  return std::string(png.begin(), png.end());
}

std::string to_json(const std::string &image, const cv::Mat &ids) {
  std::map<int, int> counts;
  for (int y = 0; y < ids.rows; ++y)
    for (int x = 0; x < ids.cols; ++x) ++counts[ids.at<uint8_t>(y, x)];
  nlohmann::json classes = nlohmann::json::object();
  for (auto &[id, n] : counts) classes[std::to_string(id)] = n;
  return nlohmann::json{{"image", image}, {"width", ids.cols}, {"height", ids.rows}, {"classes", classes}}
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace gz
