package gluonzoo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.opencv.core.Core;
import org.opencv.core.CvType;
import org.opencv.core.Mat;
import org.opencv.core.MatOfByte;
import org.opencv.core.MatOfFloat;
import org.opencv.core.MatOfInt;
import org.opencv.core.MatOfRect2d;
import org.opencv.core.Rect;
import org.opencv.core.Rect2d;
import org.opencv.core.Size;
import org.opencv.dnn.Dnn;
import org.opencv.dnn.Net;
import org.opencv.imgcodecs.Imgcodecs;
import org.opencv.imgproc.Imgproc;
import org.opencv.videoio.VideoCapture;
import org.opencv.videoio.Videoio;

/**
 * One exported gluonzoo model run by OpenCV DNN, with gluonzoo.vision.transforms.image_eval's steps: a classifier
 * (classify), an object detector exported with target='opencv' (detect): its graph returns the candidate rows
 * (id, score, x1, y1, x2, y2) before NMS, which OpenCV 4.6 DNN cannot run, and the NMS runs here, per class with
 * Dnn.NMSBoxes, as MXNet's box_nms does; or a semantic segmenter (segment): the class scores at the graph's fixed
 * size, resized back to the picture's as MXNet's BilinearResize2D does, then the argmax; or an action recognizer
 * (recognize): a video file's centred test clip, sampled as gluonzoo.vision.inference.clip_indices samples it and
 * read with OpenCV's VideoCapture, its frames preprocessed, the graph's rows averaged.
 */
final class Model {
    /** A request that cannot be answered: an HTTP 4xx, one line saying what was wrong. */
    static class BadInput extends Exception {
        BadInput(String msg) { super(msg); }
    }

    /** An image whose header claims more than ImageHeader.MAX_PIXELS pixels: an HTTP 413. */
    static final class TooLarge extends BadInput {
        TooLarge(String msg) { super(msg); }
    }

    record Scored(int index, String label, double prob) {}

    /** An object: class, score and corner box (x1, y1, x2, y2) in the original picture's pixels. */
    record Detection(int index, String label, double score, double[] box) {}

    final String model, task;
    private final boolean detector, segmenter, recognizer, perClass;
    // an action recognizer's test clip: `segments` clips of `frames` frames `step` apart (0 frames: a frame model,
    // TSN, one frame a segment); slowfast {fast, slow} or null
    private final int frames, step, segments;
    private final int[] slowfast;
    private final float iouThreshold, validThreshold;
    private final int topk, postNms;
    private final int[] resize, crop;
    private final String interp;
    private final String color;  // what the net takes: RGB, BGR or grey (one channel)
    private final float[] mean, std;
    private final float scale;
    private final List<String> classes;
    private final Net net;

    Model(Path onnx) throws Exception {
        Map<String, String> m = OnnxMeta.read(onnx);
        model = m.get("gluonzoo.model");
        if (model == null) throw new IllegalArgumentException(onnx + " is not a gluonzoo export (no gluonzoo.model)");
        if ("1".equals(m.get("gluonzoo.preprocess_in_graph")))
            throw new IllegalArgumentException("export without --preprocess for OpenCV (it feeds float NCHW)");
        // a record without resize/crop (e.g. CIFAR's 32x32): the graph's own input size, short side resized to it
        int[] shape = ints(m.getOrDefault("gluonzoo.input_shape", "1,3,224,224"));
        String cropDefault = shape.length == 4 ? shape[2] + "," + shape[3] : "224";
        boolean segmentation = "semantic-segmentation".equals(m.get("gluonzoo.task"));
        if (shape.length == 5) cropDefault = shape[3] + "," + shape[4];  // (N, 3, T, H, W) clips
        int[] c = ints(segmentation ? cropDefault : m.getOrDefault("gluonzoo.preprocess.crop", cropDefault));
        crop = c.length == 1 ? new int[] {c[0], c[0]} : c;
        boolean action = "action-recognition".equals(m.get("gluonzoo.task"));
        // no resize: the graph's own size, short side resized to it; an action recognizer's frames keep theirs (as
        // image_eval: none {}, then the crop)
        resize = segmentation ? crop.clone() : action && !m.containsKey("gluonzoo.preprocess.resize") ? new int[0]
                : ints(m.getOrDefault("gluonzoo.preprocess.resize", String.valueOf(crop[0])));
        String i = m.getOrDefault("gluonzoo.preprocess.interp", "");
        interp = "None".equals(i) ? "" : i;
        mean = floats(m.getOrDefault("gluonzoo.preprocess.mean", "0.485,0.456,0.406"));  // as the C++ service
        std = floats(m.getOrDefault("gluonzoo.preprocess.std", "0.229,0.224,0.225"));
        scale = Float.parseFloat(m.getOrDefault("gluonzoo.preprocess.scale", String.valueOf(1 / 255.0)));
        color = m.getOrDefault("gluonzoo.preprocess.color", "RGB");
        if (!List.of("RGB", "BGR", "grey").contains(color))
            throw new IllegalArgumentException("unknown gluonzoo.preprocess.color '" + color + "': RGB, BGR or grey");
        int channels = "grey".equals(color) ? 1 : 3;
        if (mean.length != channels || std.length != channels)
            throw new IllegalArgumentException("gluonzoo.preprocess mean/std do not have one value per channel of "
                                               + color);
        String names = m.getOrDefault("gluonzoo.classes", "");
        classes = names.isEmpty() ? List.of() : Arrays.asList(names.split("\n", -1));
        task = m.getOrDefault("gluonzoo.task", "image-classification");
        detector = task.equals("object-detection");
        segmenter = task.equals("semantic-segmentation");
        recognizer = task.equals("action-recognition");
        frames = Integer.parseInt(m.getOrDefault("gluonzoo.preprocess.frames", "0"));
        step = Integer.parseInt(m.getOrDefault("gluonzoo.preprocess.step", "1"));
        segments = Integer.parseInt(m.getOrDefault("gluonzoo.preprocess.segments", "1"));
        slowfast = m.containsKey("gluonzoo.preprocess.slowfast") ? ints(m.get("gluonzoo.preprocess.slowfast")) : null;
        if (frames < 0 || step < 1 || segments < 1 || (slowfast != null && slowfast.length != 2))
            throw new IllegalArgumentException("bad gluonzoo.preprocess frames/step/segments/slowfast");
        if (recognizer && (frames > 0 || slowfast != null))
            throw new IllegalArgumentException("a clip model's graph (3D convolution and pooling) does not run in "
                    + "OpenCV 4.6 DNN (its 3D pooling takes no 3D pads): serve it with the C++ service's --backend "
                    + "ort; TSN frame models run here");
        if (segmenter) {  // the graph's fixed size (its upsampling is fixed to it), the whole picture resized to it
            if (shape.length != 4)
                throw new IllegalArgumentException("a segmentation export needs gluonzoo.input_shape N,C,H,W");
            if (m.containsKey("gluonzoo.preprocess.crop"))
                throw new IllegalArgumentException("segmentation preprocess with a crop: the service labels every "
                        + "pixel of the picture");
            if (classes.size() > 256)
                throw new IllegalArgumentException("over 256 classes: an 8-bit PNG cannot hold the class ids");
        }
        if (detector) {
            if (resize.length != 2)  // detect() maps boxes back through an exact resize to the graph's fixed size
                throw new IllegalArgumentException("detector preprocess resizes the short side (variable image size); "
                        + "the service feeds the graph's fixed input size, so it takes detectors with an exact "
                        + "(height, width) resize only");
            crop[0] = resize[0];  // detectors see the whole picture: a resize, no crop
            crop[1] = resize[1];
            if ("1".equals(m.get("gluonzoo.nms.in_graph")))
                throw new IllegalArgumentException("this export has its NMS in the graph, which OpenCV 4.6 DNN cannot "
                        + "run: export the detector with target='opencv'");
        }
        perClass = !"0".equals(m.get("gluonzoo.nms.per_class"));
        iouThreshold = Float.parseFloat(m.getOrDefault("gluonzoo.nms.iou_threshold", "0.45"));
        validThreshold = Float.parseFloat(m.getOrDefault("gluonzoo.nms.valid_threshold", "0.01"));
        topk = Integer.parseInt(m.getOrDefault("gluonzoo.nms.topk", "-1"));
        postNms = Integer.parseInt(m.getOrDefault("gluonzoo.nms.post_nms", "-1"));
        net = Dnn.readNetFromONNX(onnx.toString());
    }

    boolean detector() { return detector; }

    boolean segmenter() { return segmenter; }

    boolean recognizer() { return recognizer; }

    /** What a request for the wrong task's endpoint gets: the one this model answers. */
    private BadInput wrongTask() {
        String where = detector ? "/detect (CLI: --detect)" : segmenter ? "/segment (CLI: --segment)"
                : recognizer ? "/recognize (CLI: --recognize)" : "/predict (CLI: --predict)";
        return new BadInput(model + " is a model for " + task + ": POST the " + (recognizer ? "video" : "image")
                            + " to " + where);
    }

    private static int[] ints(String s) {
        return Arrays.stream(s.split(",")).mapToInt(x -> Integer.parseInt(x.trim())).toArray();
    }

    private static float[] floats(String s) {
        String[] parts = s.split(",");
        float[] out = new float[parts.length];
        for (int k = 0; k < parts.length; k++) out[k] = Float.parseFloat(parts[k].trim());
        return out;
    }

    static Mat decodeRgb(byte[] data) throws BadInput {
        if (data.length == 0) throw new BadInput("empty body: POST the bytes of a JPEG/PNG/BMP image");
        if (data.length >= 2 && (data[0] & 0xff) == 0xFF && (data[1] & 0xff) == 0xD8 && !hasJpegEnd(data))
            throw new BadInput("truncated JPEG: no end-of-image marker");  // libjpeg would pad it with gray
        long[] size = ImageHeader.size(data);
        if (size != null && size[0] * size[1] > ImageHeader.MAX_PIXELS)
            throw new TooLarge("image claims " + size[0] + "x" + size[1] + " pixels, over the "
                               + ImageHeader.MAX_PIXELS + "-pixel limit (an image bomb?)");
        MatOfByte buf = new MatOfByte(data);
        Mat bgr = Imgcodecs.imdecode(buf, Imgcodecs.IMREAD_COLOR);
        buf.release();
        if (bgr.empty()) throw new BadInput("body is not an image OpenCV can decode (JPEG/PNG/BMP/...)");
        Mat rgb = new Mat();
        Imgproc.cvtColor(bgr, rgb, Imgproc.COLOR_BGR2RGB);
        bgr.release();
        return rgb;
    }

    private static boolean hasJpegEnd(byte[] d) {
        for (int k = d.length - 2; k >= Math.max(0, d.length - 64); k--)
            if ((d[k] & 0xff) == 0xFF && (d[k + 1] & 0xff) == 0xD9) return true;
        return false;
    }

    Mat preprocess(Mat decodedRgb) throws BadInput {
        Mat rgb = decodedRgb;  // in the net's color: grey is OpenCV's luma, as Python's to_color
        if ("grey".equals(color)) {
            rgb = new Mat();
            Imgproc.cvtColor(decodedRgb, rgb, Imgproc.COLOR_RGB2GRAY);
        } else if ("BGR".equals(color)) {
            rgb = new Mat();
            Imgproc.cvtColor(decodedRgb, rgb, Imgproc.COLOR_RGB2BGR);
        }
        final int C = rgb.channels();
        int h = rgb.rows(), w = rgb.cols(), nh, nw;
        if (resize.length == 0) {  // no resize
            nh = h;
            nw = w;
        } else if (resize.length == 1) {  // short side; the long one truncated, as MXNet's Resize(keep_ratio) does
            int s = resize[0];
            if (h <= w) { nh = s; nw = (int) ((double) w * s / h); } else { nw = s; nh = (int) ((double) h * s / w); }
        } else {
            nh = resize[0];
            nw = resize[1];
        }
        int flag = switch (interp) {
            case "area" -> Imgproc.INTER_AREA;
            case "linear" -> Imgproc.INTER_LINEAR;
            case "cubic" -> Imgproc.INTER_CUBIC;
            case "nearest" -> Imgproc.INTER_NEAREST;
            default -> (long) nh * nw < (long) h * w ? Imgproc.INTER_AREA : Imgproc.INTER_LINEAR;
        };
        Mat resized = new Mat();
        Imgproc.resize(rgb, resized, new Size(nw, nh), 0, 0, flag);
        if (rgb != decodedRgb) rgb.release();
        int ch = crop[0], cw = crop[1];
        if (nh < ch || nw < cw) {
            resized.release();
            throw new BadInput("image too small to crop after resizing");
        }
        Mat cropped = resized.submat(new Rect((nw - cw) / 2, (nh - ch) / 2, cw, ch)).clone();
        resized.release();
        byte[] px = new byte[ch * cw * C];
        cropped.get(0, 0, px);
        cropped.release();
        float[] chw = new float[C * ch * cw];
        for (int c = 0; c < C; c++)
            for (int k = 0; k < ch * cw; k++) {
                float v = (px[C * k + c] & 0xff) * scale;
                chw[c * ch * cw + k] = (v - mean[c]) / std[c];
            }
        Mat blob = new Mat(new int[] {1, C, ch, cw}, CvType.CV_32F);
        blob.put(new int[] {0, 0, 0, 0}, chw);
        return blob;
    }

    /**
     * decode -> preprocess -> run: the graph's first output, flat; `size` gets the picture's {width, height} and
     * `shape`, when given, the output's shape.
     * An OpenCV Java Mat holds native memory that only its finalizer frees, at a GC that a small Java heap makes
     * rare: the service grew by 800 MB under the load test. Every Mat is released as soon as it has been used.
     */
    private float[] infer(byte[] data, int[] size, int[] shape) throws BadInput {
        Mat rgb = decodeRgb(data);
        size[0] = rgb.cols();
        size[1] = rgb.rows();
        Mat x;
        try {
            x = preprocess(rgb);
        } finally {
            rgb.release();
        }
        return run(x, shape);
    }

    /** The graph's first output on `x` (released here), flat; `shape`, when given, gets its shape. */
    private float[] run(Mat x, int[] shape) {
        synchronized (net) {  // cv::dnn::Net is not thread-safe; the HTTP server is
            net.setInput(x);
            // every output, in layer order, which is the graph's output order for our exports (a segmenter's main
            // scores come before its auxiliary head's); a bare forward() gives the last layer's only
            List<Mat> ys = new ArrayList<>();
            net.forward(ys, net.getUnconnectedOutLayersNames());
            Mat y = ys.get(0), flat = y.reshape(1, 1);
            if (shape != null)
                for (int d = 0; d < Math.min(shape.length, y.dims()); d++) shape[d] = y.size(d);
            float[] out = new float[(int) flat.total()];
            flat.get(0, 0, out);
            x.release();
            flat.release();
            for (Mat m : ys) m.release();
            return out;
        }
    }

    List<Scored> classify(byte[] data, int topk) throws BadInput {
        if (detector || segmenter || recognizer) throw wrongTask();
        return topOf(infer(data, new int[2], null), topk);
    }

    /** softmax, then the top-k of one row of scores */
    private List<Scored> topOf(float[] logits, int topk) {
        double mx = Double.NEGATIVE_INFINITY, sum = 0;
        for (float v : logits) mx = Math.max(mx, v);
        double[] p = new double[logits.length];
        for (int k = 0; k < p.length; k++) sum += p[k] = Math.exp(logits[k] - mx);
        Integer[] idx = new Integer[p.length];
        for (int k = 0; k < p.length; k++) { p[k] /= sum; idx[k] = k; }
        Arrays.sort(idx, Comparator.comparingDouble((Integer k) -> -p[k]));
        List<Scored> out = new ArrayList<>();
        for (int k = 0; k < Math.min(topk, p.length); k++) {
            int j = idx[k];
            out.add(new Scored(j, j < classes.size() ? classes.get(j) : String.valueOf(j), p[j]));
        }
        return out;
    }

    /** The frame ids of an n-frame video's test clip, as gluonzoo.vision.inference.clip_indices gives them. */
    List<Integer> clipIndices(int n) {
        // sample_offsets(mode='test'): each segment's 1-based start in the middle of its stretch (0 when the video is
        // shorter than a clip); a clip's frames from there, the start stopping at the end (SlowFast: consecutive
        // frames, its pathways' strides pick from them)
        int length = frames > 0 ? frames : 1, skip = length * step, walk = slowfast == null ? step : 1;
        double tick = (double) (n - skip + 1) / segments;
        List<Integer> ids = new ArrayList<>();
        for (int s = 0; s < segments; s++) {
            int offset = (n > skip - 1 ? (int) (tick / 2.0 + tick * s) : 0) + 1;
            int[] clip = new int[length];
            for (int i = 0; i < length; i++) {
                clip[i] = offset - 1;
                if (offset + walk < n) offset += walk;
            }
            if (slowfast == null) {
                for (int id : clip) ids.add(id);
                continue;
            }
            int fast = length / slowfast[0], slow = length / slowfast[1];
            for (int i = 0; i < length; i++) if ((i + 1) % fast == 0) ids.add(clip[i]);
            for (int i = 0; i < length; i++) if ((i + 1) % fast == 0 && (i + 1) % slow == 0) ids.add(clip[i]);
        }
        return ids;
    }

    /** The most frames a video may have: GLUONZOO_MAX_VIDEO_FRAMES, default 10,000. */
    static final int MAX_VIDEO_FRAMES = Integer.parseInt(System.getenv().getOrDefault("GLUONZOO_MAX_VIDEO_FRAMES",
                                                                                       "10000"));

    private static VideoCapture open(Path file) throws BadInput {
        VideoCapture cap = new VideoCapture(file.toString(), Videoio.CAP_FFMPEG);
        if (!cap.isOpened())
            throw new BadInput("body is not a video OpenCV's FFmpeg can open (AVI, MP4, MKV, ...)");
        return cap;
    }

    /**
     * A video file's top-k actions: its centred test clip (clipIndices: the record's sampling, the centre crop, as Python's recognize(views=(None, 1)))
     * read with OpenCV's VideoCapture from a temporary file (OpenCV 4.6 reads videos from files only), every frame
     * preprocessed, the graph's output rows averaged, softmax.
     */
    List<Scored> recognize(byte[] data, int topk) throws BadInput, IOException {
        if (!recognizer) throw wrongTask();
        if (data.length == 0) throw new BadInput("empty body: POST the bytes of a video file");
        Path file = Files.createTempFile("gluonzoo-video-", "");
        try {
            Files.write(file, data);
            // pass 1: how many frames the file holds (grab demuxes without decoding), and the time they span,
            // against its header's count (vision.data.video_reader's OpenCV source: tree.avi's header says 444, its
            // 68 frames span them)
            VideoCapture cap = open(file);
            int claimed = (int) cap.get(Videoio.CAP_PROP_FRAME_COUNT), n = 0;
            double rate = cap.get(Videoio.CAP_PROP_FPS), lastMs = 0;
            try {
                while (cap.grab()) {
                    if (++n > MAX_VIDEO_FRAMES)
                        throw new TooLarge("video over " + MAX_VIDEO_FRAMES + " frames: cut it to the part to "
                                           + "recognize");
                    lastMs = cap.get(Videoio.CAP_PROP_POS_MSEC);
                }
            } finally {
                cap.release();
            }
            if (n == 0) throw new BadInput("the video holds no frame OpenCV can read");
            long span = rate > 0 ? Math.max(n, Math.round(lastMs / 1000 * rate) + 1) : n;
            if (claimed > 0 && span < claimed)
                throw new BadInput("the header says " + claimed + " frames but the file holds " + span
                                   + ": it is truncated or corrupt");
            List<Integer> ids = clipIndices(n);
            // pass 2: decode the frames the clip takes, each once, preprocessed to (C * h * w) floats
            TreeMap<Integer, float[]> got = new TreeMap<>();
            for (int id : ids) got.put(id, null);
            cap = open(file);
            Mat bgr = new Mat(), rgb = new Mat();
            int[] chw = null;
            try {
                for (int i = 0; i <= got.lastKey(); i++) {
                    if (!cap.grab()) throw new BadInput("frame " + i + " cannot be read: the video is corrupt");
                    if (!got.containsKey(i)) continue;
                    if (!cap.retrieve(bgr) || bgr.empty())
                        throw new BadInput("frame " + i + " cannot be decoded: the video is corrupt");
                    Imgproc.cvtColor(bgr, rgb, Imgproc.COLOR_BGR2RGB);
                    Mat x = preprocess(rgb);  // 1 x C x h x w
                    chw = new int[] {x.size(1), x.size(2), x.size(3)};
                    float[] px = new float[chw[0] * chw[1] * chw[2]];
                    x.get(new int[] {0, 0, 0, 0}, px);
                    x.release();
                    got.put(i, px);
                }
            } finally {
                cap.release();
                bgr.release();
                rgb.release();
            }
            // a clip model takes (1, C, T, h, w), a frame model (T, C, h, w)
            boolean clip = frames > 0 || slowfast != null;
            int T = ids.size(), C = chw[0], plane = chw[1] * chw[2];
            float[] all = new float[T * C * plane];
            for (int t = 0; t < T; t++)
                for (int c = 0; c < C; c++)
                    System.arraycopy(got.get(ids.get(t)), c * plane, all, (clip ? c * T + t : t * C + c) * plane,
                                     plane);
            int[] dims = clip ? new int[] {1, C, T, chw[1], chw[2]} : new int[] {T, C, chw[1], chw[2]};
            Mat x = new Mat(dims, CvType.CV_32F);
            x.put(new int[dims.length], all);
            int[] shape = new int[2];
            float[] scores = run(x, shape);  // (rows, classes): the rows a video's views, averaged
            int rows = shape[0], classes = shape[1];
            float[] mean = new float[classes];
            for (int r = 0; r < rows; r++)
                for (int k = 0; k < classes; k++) mean[k] += scores[r * classes + k] / rows;
            return topOf(mean, topk);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** The objects scoring at least `threshold`, best first, boxes mapped back through the resize. */
    List<Detection> detect(byte[] data, double threshold) throws BadInput {
        if (!detector) throw wrongTask();
        int[] size = new int[2];
        float[] rows = infer(data, size, null);  // (1, N, 6) candidate rows
        double sx = (double) size[0] / crop[1], sy = (double) size[1] / crop[0];
        List<Detection> out = new ArrayList<>();
        for (int i : suppress(rows, rows.length / 6)) {
            int r = 6 * i, id = (int) rows[r];
            if ((double) rows[r + 1] < threshold) continue;
            out.add(new Detection(id, id < classes.size() ? classes.get(id) : String.valueOf(id), rows[r + 1],
                    new double[] {rows[r + 2] * sx, rows[r + 3] * sy, rows[r + 4] * sx, rows[r + 5] * sy}));
        }
        return out;
    }

    /**
     * decode -> resize to the graph's input size -> run -> the first output's class scores resized back to the
     * picture's size -> argmax: the class id of every pixel (rows of width), in a Mat of CV_8UC1.
     */
    Mat segment(byte[] data) throws BadInput {
        if (!segmenter) throw wrongTask();
        int[] size = new int[2], shape = new int[4];
        float[] scores = infer(data, size, shape);  // (1, classes, h, w)
        return upsampleArgmax(scores, shape[1], shape[2], shape[3], size[1], size[0]);
    }

    /**
     * MXNet's BilinearResize2D (align_corners, its float arithmetic) of (classes, h, w) scores to (H, W), fused with
     * the argmax over classes (the first of equal scores). gluonzoo.vision.inference.segment resizes with
     * align_corners=True (the corners' pixel centres meet), which Imgproc.resize cannot do; this is MXNet's CPU
     * kernel, float for float (the C++ service's upsample_argmax).
     */
    static Mat upsampleArgmax(float[] s, int classes, int h, int w, int H, int W) {
        final float ry = H > 1 ? (float) (h - 1) / (float) (H - 1) : 0f;
        final float rx = W > 1 ? (float) (w - 1) / (float) (W - 1) : 0f;
        final int plane = h * w;
        int[] x0 = new int[W], xp = new int[W];
        float[] lx0 = new float[W], lx1 = new float[W];
        for (int x = 0; x < W; x++) {
            float fx = rx * (float) x;
            x0[x] = (int) fx;
            xp[x] = x0[x] < w - 1 ? 1 : 0;
            lx1[x] = fx - (float) x0[x];
            lx0[x] = 1f - lx1[x];
        }
        byte[] ids = new byte[H * W];
        for (int y = 0; y < H; y++) {
            float fy = ry * (float) y;
            int y0 = (int) fy, yp = y0 < h - 1 ? w : 0;
            float ly1 = fy - (float) y0, ly0 = 1f - ly1;
            for (int x = 0; x < W; x++) {
                int p = y0 * w + x0[x], best = 0;
                float top = 0;
                for (int c = 0; c < classes; c++, p += plane) {
                    float v = ly0 * (lx0[x] * s[p] + lx1[x] * s[p + xp[x]])
                            + ly1 * (lx0[x] * s[p + yp] + lx1[x] * s[p + yp + xp[x]]);
                    if (c == 0 || v > top) { top = v; best = c; }  // the first of equal scores, as numpy's argmax
                }
                ids[y * W + x] = (byte) best;
            }
        }
        Mat out = new Mat(H, W, CvType.CV_8UC1);
        out.put(0, 0, ids);
        return out;
    }

    /** The PNG of an 8-bit, one-channel class-id map (released here). */
    static byte[] png(Mat ids) {
        MatOfByte buf = new MatOfByte();
        Imgcodecs.imencode(".png", ids, buf);
        byte[] out = buf.toArray();
        buf.release();
        ids.release();
        return out;
    }

    /**
     * MXNet's box_nms on one image's candidate rows, then the post_nms cut: valid rows (score over the valid
     * threshold, id not -1), best first with ties in row order, the topk of them; greedy suppression per class (ids
     * as ints) at IoU over the threshold, without +1 widths. The kept rows' indices, best first.
     */
    List<Integer> suppress(float[] rows, int count) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < count; i++)
            if (rows[6 * i + 1] > validThreshold && rows[6 * i] != -1f) order.add(i);
        order.sort(Comparator.comparingDouble((Integer i) -> -rows[6 * i + 1]));  // List.sort is stable
        if (topk > 0 && order.size() > topk) order = new ArrayList<>(order.subList(0, topk));
        Map<Integer, List<Integer>> byClass = new java.util.TreeMap<>();
        List<Integer> kept = new ArrayList<>();
        for (int i : order) {
            int r = 6 * i;
            if (rows[r + 4] - rows[r + 2] <= 0 || rows[r + 5] - rows[r + 3] <= 0) {  // no area: MXNet's IoU is 0
                kept.add(i);
                continue;
            }
            byClass.computeIfAbsent(perClass ? (int) rows[r] : 0, k -> new ArrayList<>()).add(i);
        }
        for (List<Integer> members : byClass.values()) {
            Rect2d[] boxes = new Rect2d[members.size()];
            float[] scores = new float[members.size()];
            for (int k = 0; k < boxes.length; k++) {
                int r = 6 * members.get(k);
                boxes[k] = new Rect2d(rows[r + 2], rows[r + 3], (double) rows[r + 4] - rows[r + 2],
                                      (double) rows[r + 5] - rows[r + 3]);
                scores[k] = rows[r + 1];
            }
            MatOfInt picked = new MatOfInt();  // NMSBoxes' score threshold must be >= 0: every row passed it already
            Dnn.NMSBoxes(new MatOfRect2d(boxes), new MatOfFloat(scores), Math.max(validThreshold, 0f), iouThreshold,
                         picked);
            for (int k : picked.toArray()) kept.add(members.get(k));
        }
        Map<Integer, Integer> rank = new java.util.HashMap<>();
        for (int k = 0; k < order.size(); k++) rank.put(order.get(k), k);
        kept.sort(Comparator.comparingInt(rank::get));
        return postNms > 0 && kept.size() > postNms ? kept.subList(0, postNms) : kept;
    }

    String backend() { return "opencv-dnn " + Core.VERSION; }
}
