package gluonzoo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.opencv.core.Core;
import org.opencv.core.CvType;
import org.opencv.core.Mat;
import org.opencv.core.MatOfByte;
import org.opencv.core.Rect;
import org.opencv.core.Size;
import org.opencv.dnn.Dnn;
import org.opencv.dnn.Net;
import org.opencv.imgcodecs.Imgcodecs;
import org.opencv.imgproc.Imgproc;

/** One exported gluonzoo classifier run by OpenCV DNN, with gluonzoo.vision.transforms.image_eval's steps. */
final class Classifier {
    static final class BadInput extends Exception {
        BadInput(String msg) { super(msg); }
    }

    record Scored(int index, String label, double prob) {}

    final String model;
    private final int[] resize, crop;
    private final String interp;
    private final String color;  // what the net takes: RGB, BGR or grey (one channel)
    private final float[] mean, std;
    private final float scale;
    private final List<String> classes;
    private final Net net;

    Classifier(Path onnx) throws Exception {
        Map<String, String> m = OnnxMeta.read(onnx);
        model = m.get("gluonzoo.model");
        if (model == null) throw new IllegalArgumentException(onnx + " is not a gluonzoo export (no gluonzoo.model)");
        if ("1".equals(m.get("gluonzoo.preprocess_in_graph")))
            throw new IllegalArgumentException("export without --preprocess for OpenCV (it feeds float NCHW)");
        // a record without resize/crop (e.g. CIFAR's 32x32): the graph's own input size, short side resized to it
        int[] shape = ints(m.getOrDefault("gluonzoo.input_shape", "1,3,224,224"));
        String cropDefault = shape.length == 4 ? shape[2] + "," + shape[3] : "224";
        int[] c = ints(m.getOrDefault("gluonzoo.preprocess.crop", cropDefault));
        crop = c.length == 1 ? new int[] {c[0], c[0]} : c;
        resize = ints(m.getOrDefault("gluonzoo.preprocess.resize", String.valueOf(crop[0])));
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
        net = Dnn.readNetFromONNX(onnx.toString());
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
        Mat bgr = Imgcodecs.imdecode(new MatOfByte(data), Imgcodecs.IMREAD_COLOR);
        if (bgr.empty()) throw new BadInput("body is not an image OpenCV can decode (JPEG/PNG/BMP/...)");
        Mat rgb = new Mat();
        Imgproc.cvtColor(bgr, rgb, Imgproc.COLOR_BGR2RGB);
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
        if (resize.length == 1) {  // short side; the long one truncated, as MXNet's Resize(keep_ratio) does
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
        int ch = crop[0], cw = crop[1];
        if (nh < ch || nw < cw) throw new BadInput("image too small to crop after resizing");
        Mat cropped = resized.submat(new Rect((nw - cw) / 2, (nh - ch) / 2, cw, ch)).clone();
        byte[] px = new byte[ch * cw * C];
        cropped.get(0, 0, px);
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

    List<Scored> classify(byte[] data, int topk) throws BadInput {
        Mat x = preprocess(decodeRgb(data));
        float[] logits;
        synchronized (net) {  // cv::dnn::Net is not thread-safe; the HTTP server is
            net.setInput(x);
            Mat out = net.forward();
            Mat flat = out.reshape(1, 1);
            logits = new float[(int) flat.total()];
            flat.get(0, 0, logits);
        }
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

    String backend() { return "opencv-dnn " + Core.VERSION; }
}
