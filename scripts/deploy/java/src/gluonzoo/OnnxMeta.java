package gluonzoo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The metadata_props of an ONNX file (ModelProto field 14: {1: key, 2: value}) read from the protobuf wire format,
 * every other field skipped: OpenCV's DNN API does not expose them, and they carry the preprocessing and class
 * names the Python exporter wrote.
 */
final class OnnxMeta {
    private final byte[] b;
    private int p;
    private final int end;

    private OnnxMeta(byte[] b, int p, int end) {
        this.b = b;
        this.p = p;
        this.end = end;
    }

    static Map<String, String> read(Path path) throws IOException {
        byte[] data = Files.readAllBytes(path);
        OnnxMeta r = new OnnxMeta(data, 0, data.length);
        Map<String, String> out = new LinkedHashMap<>();
        while (r.p < r.end) {
            long tag = r.varint();
            int field = (int) (tag >>> 3), wire = (int) (tag & 7);
            if (field == 14 && wire == 2) {
                int n = r.length();
                OnnxMeta e = new OnnxMeta(data, r.p, r.p + n);
                r.p += n;
                String key = "", value = "";
                while (e.p < e.end) {
                    long t = e.varint();
                    if ((t & 7) == 2 && ((t >>> 3) == 1 || (t >>> 3) == 2)) {
                        int m = e.length();
                        String s = new String(data, e.p, m, java.nio.charset.StandardCharsets.UTF_8);
                        e.p += m;
                        if ((t >>> 3) == 1) key = s; else value = s;
                    } else {
                        e.skip((int) (t & 7));
                    }
                }
                out.put(key, value);
            } else {
                r.skip(wire);
            }
        }
        return out;
    }

    private long varint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p >= end) throw new IllegalArgumentException("truncated ONNX file");
            byte x = b[p++];
            v |= (long) (x & 0x7f) << shift;
            if ((x & 0x80) == 0) return v;
        }
        throw new IllegalArgumentException("bad varint in ONNX file");
    }

    private int length() {
        long n = varint();
        if (n > end - p) throw new IllegalArgumentException("field past the end of the ONNX file");
        return (int) n;
    }

    private void skip(int wire) {
        switch (wire) {
            case 0 -> varint();
            case 1 -> p += 8;
            case 2 -> { int n = length(); p += n; }  // not p += length(): Java reads p before the call
            case 5 -> p += 4;
            default -> throw new IllegalArgumentException("unsupported protobuf wire type " + wire);
        }
    }
}
