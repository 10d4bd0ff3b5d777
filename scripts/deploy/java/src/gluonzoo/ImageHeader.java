package gluonzoo;

/**
 * The size an image's header claims, read without decoding it (the twin of gluonzoo.vision.image.image_size and
 * check_pixels, and of the C++ service's image_header.cpp): a PNG of a few hundred bytes can claim 20000x20000
 * pixels, 1.2 GB once decoded, so the service and CLI refuse such an image before OpenCV allocates anything.
 */
final class ImageHeader {
    /** The most pixels an image may claim: 100,000,000, or $GLUONZOO_MAX_PIXELS (as in Python). */
    static final long MAX_PIXELS = maxPixels();

    private ImageHeader() {}

    /**
     * {width, height} from the header of a PNG, JPEG (its SOF frame header), GIF, BMP or WebP (VP8, VP8L, VP8X);
     * null for another format or a header too short to say (the decoder then decides).
     */
    static long[] size(byte[] d) {
        int n = d.length;
        if (starts(d, 0, "\u0089PNG\r\n\u001a\n") && n >= 24) return new long[] {be32(d, 16), be32(d, 20)};
        if ((starts(d, 0, "GIF87a") || starts(d, 0, "GIF89a")) && n >= 10) return new long[] {le16(d, 6), le16(d, 8)};
        if (starts(d, 0, "BM") && n >= 26)  // signed: a negative height means top-down rows
            return new long[] {Math.abs((long) (int) le32(d, 18)), Math.abs((long) (int) le32(d, 22))};
        if (starts(d, 0, "RIFF") && starts(d, 8, "WEBP") && n >= 30) {
            if (starts(d, 12, "VP8 ")) return new long[] {le16(d, 26) & 0x3FFF, le16(d, 28) & 0x3FFF};
            if (starts(d, 12, "VP8L")) {
                long bits = le32(d, 21);
                return new long[] {(bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1};
            }
            if (starts(d, 12, "VP8X")) return new long[] {le24(d, 24) + 1, le24(d, 27) + 1};
            return null;
        }
        if (n >= 2 && u8(d, 0) == 0xFF && u8(d, 1) == 0xD8) return jpegSize(d);
        return null;
    }

    /** Walk the marker segments to the frame header: SOF0..SOF15 but DHT (C4), JPG (C8) and DAC (CC). */
    private static long[] jpegSize(byte[] d) {
        int i = 2;
        while (i + 4 <= d.length) {
            if (u8(d, i) != 0xFF) return null;
            int marker = u8(d, i + 1);
            if (marker == 0xFF) {  // fill byte
                i += 1;
                continue;
            }
            if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {  // standalone markers: no length
                i += 2;
                continue;
            }
            if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
                    && i + 9 <= d.length)
                return new long[] {be16(d, i + 7), be16(d, i + 5)};  // precision, height, width
            i += 2 + (int) be16(d, i + 2);
        }
        return null;
    }

    private static long maxPixels() {
        String env = System.getenv("GLUONZOO_MAX_PIXELS");
        return env == null || env.isEmpty() ? 100_000_000L : Long.parseLong(env.trim());
    }

    private static boolean starts(byte[] d, int at, String magic) {
        if (d.length < at + magic.length()) return false;
        for (int k = 0; k < magic.length(); k++)
            if (u8(d, at + k) != magic.charAt(k)) return false;
        return true;
    }

    private static int u8(byte[] d, int i) { return d[i] & 0xff; }
    private static long be16(byte[] d, int i) { return (long) u8(d, i) << 8 | u8(d, i + 1); }
    private static long be32(byte[] d, int i) { return be16(d, i) << 16 | be16(d, i + 2); }
    private static long le16(byte[] d, int i) { return (long) u8(d, i + 1) << 8 | u8(d, i); }
    private static long le24(byte[] d, int i) { return (long) u8(d, i + 2) << 16 | le16(d, i); }
    private static long le32(byte[] d, int i) { return (long) u8(d, i + 3) << 24 | le24(d, i); }
}
