// An action recognizer's answer for a video file: its test clip sampled as gluonzoo.vision.inference.clip_indices
// samples it (GluonCV's test mode: one centred clip of `frames` frames `step` apart, TSN's middle frame of each of
// `segments` stretches, SlowFast's fast then slow frames), read with OpenCV's VideoCapture (FFmpeg), every frame
// through image_eval's steps (preprocess), the graph's rows averaged, softmax, top-k (POST /recognize, --recognize).
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "model.hpp"

namespace gz {
namespace {
// The body in a file VideoCapture can open (OpenCV 4.6 reads videos from files or streams only), removed after.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string &bytes) {
    char name[] = "/tmp/gluonzoo-video-XXXXXX";
    int fd = mkstemp(name);
    if (fd < 0) throw std::runtime_error("cannot create a temporary file for the video");
    path = name;
    for (size_t done = 0; done < bytes.size();) {
      ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n <= 0) { ::close(fd); std::remove(name); throw std::runtime_error("cannot write the video to /tmp"); }
      done += size_t(n);
    }
    ::close(fd);
  }
  ~TempFile() { std::remove(path.c_str()); }
};

cv::VideoCapture open(const std::string &path) {
  // FFmpeg's own log lines (e.g. "[mp3 @ 0x...] Failed to read frame size" for random bytes) would come on top of
  // our one error line; OPENCV_FFMPEG_LOGLEVEL -8 (AV_LOG_QUIET) unless the caller set another level
  static const bool quiet = setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 0) == 0;
  (void)quiet;
  cv::VideoCapture cap(path, cv::CAP_FFMPEG);
  if (!cap.isOpened()) throw BadInput("body is not a video OpenCV's FFmpeg can open (AVI, MP4, MKV, ...)");
  return cap;
}
}  // namespace

std::vector<int> clip_indices(int n, const Meta &m) {
  // vision.data.video.sample_offsets(mode='test'): each segment's 1-based start in the middle of its stretch (0 when
  // the video is shorter than a clip), then _walk: a frame past the end falls back to the clip's current start,
  // which stops moving at the end
  // (SlowFast: its clip's frames are consecutive, the pathways' strides pick from them)
  int length = m.frames > 0 ? m.frames : 1, skip = length * m.step, step = m.slowfast.empty() ? m.step : 1;
  double tick = double(n - skip + 1) / m.segments;
  std::vector<int> ids;
  for (int s = 0; s < m.segments; ++s) {
    int offset = (n > skip - 1 ? int(tick / 2.0 + tick * s) : 0) + 1;
    std::vector<int> clip;
    for (int i = 0; i < length; ++i) {
      clip.push_back(offset - 1);  // no temporal jitter at test time: the frame at the current start
      if (offset + step < n) offset += step;
    }
    if (m.slowfast.empty()) {
      ids.insert(ids.end(), clip.begin(), clip.end());
      continue;
    }
    int fast = length / m.slowfast[0], slow = length / m.slowfast[1];  // temporal strides of the two pathways
    for (int i = 0; i < length; ++i) if ((i + 1) % fast == 0) ids.push_back(clip[i]);
    for (int i = 0; i < length; ++i) if ((i + 1) % fast == 0 && (i + 1) % slow == 0) ids.push_back(clip[i]);
  }
  return ids;
}

std::vector<Scored> Model::recognize(const std::string &bytes, int topk) const {
  if (!meta_.recognizer()) throw wrong_task(meta_);
  if (bytes.empty()) throw BadInput("empty body: POST the bytes of a video file");
  TempFile file(bytes);
  // pass 1: how many frames the file holds (grab demuxes without decoding), and the time they span, against what its
  // header claims (vision.data.video_reader's OpenCV source: tree.avi's header says 444, its 68 frames span them)
  cv::VideoCapture cap = open(file.path);
  const int claimed = int(cap.get(cv::CAP_PROP_FRAME_COUNT));
  const double rate = cap.get(cv::CAP_PROP_FPS);
  int n = 0;
  double last_ms = 0;
  while (cap.grab()) {
    if (++n > max_video_frames())
      throw TooLarge("video over " + std::to_string(max_video_frames()) + " frames: cut it to the part to recognize");
    last_ms = cap.get(cv::CAP_PROP_POS_MSEC);
  }
  if (n == 0) throw BadInput("the video holds no frame OpenCV can read");
  const long span = rate > 0 ? std::max<long>(n, std::lround(last_ms / 1000 * rate) + 1) : n;
  if (claimed > 0 && span < claimed)
    throw BadInput("the header says " + std::to_string(claimed) + " frames but the file holds " + std::to_string(span) +
                   ": it is truncated or corrupt");
  std::vector<int> ids = clip_indices(n, meta_);
  // pass 2: decode the frames the clip takes, each once
  std::set<int> wanted(ids.begin(), ids.end());
  std::map<int, cv::Mat> frames;
  cap = open(file.path);
  cv::Mat bgr;
  for (int i = 0; i <= *wanted.rbegin(); ++i) {
    if (!cap.grab()) throw BadInput("frame " + std::to_string(i) + " cannot be read: the video is corrupt");
    if (!wanted.count(i)) continue;
    if (!cap.retrieve(bgr) || bgr.empty())
      throw BadInput("frame " + std::to_string(i) + " cannot be decoded: the video is corrupt");
    cv::Mat rgb;
    cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
    frames[i] = preprocess(rgb, meta_);  // 1 x C x h x w float
  }
  // a clip model takes (1, C, T, h, w), a frame model (T, C, h, w): frame t of channel c at (c * T + t) or (t * C + c)
  const cv::Mat &first = frames.begin()->second;
  const int C = first.size[1], h = first.size[2], w = first.size[3], T = int(ids.size());
  const size_t plane = size_t(h) * w;
  std::vector<int> shape = meta_.clip_model() ? std::vector<int>{1, C, T, h, w} : std::vector<int>{T, C, h, w};
  cv::Mat x(int(shape.size()), shape.data(), CV_32F);
  for (int t = 0; t < T; ++t)
    for (int c = 0; c < C; ++c)
      std::copy_n(frames[ids[t]].ptr<float>(0, c), plane,
                  x.ptr<float>() + (meta_.clip_model() ? size_t(c) * T + t : size_t(t) * C + c) * plane);
  const Tensor scores = backend_->run(x).at(0);  // (rows, classes): the rows a video's views, averaged
  if (scores.shape.size() != 2 || scores.shape[0] < 1) throw std::runtime_error("action scores are not (N, classes)");
  const size_t rows = size_t(scores.shape[0]), classes = size_t(scores.shape[1]);
  std::vector<double> logits(classes, 0.0);
  for (size_t r = 0; r < rows; ++r)
    for (size_t k = 0; k < classes; ++k) logits[k] += scores.data[r * classes + k] / double(rows);
  return top_of(logits, topk, meta_.classes);
}

int max_video_frames() {
  static const int limit = [] {
    const char *v = std::getenv("GLUONZOO_MAX_VIDEO_FRAMES");
    return v ? std::max(1, std::atoi(v)) : 10000;
  }();
  return limit;
}

}  // namespace gz
