// The size an image's header claims, read without decoding it (the twin of gluonzoo.vision.image.image_size and
// check_pixels): a PNG of a few hundred bytes can claim 20000x20000 pixels, 1.2 GB once decoded, so the services
// and CLIs refuse such an image before OpenCV allocates anything.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace gz {

struct ImageSize {
  uint64_t width, height;
};

// (width, height) from the header of a PNG, JPEG (its SOF frame header), GIF, BMP or WebP (VP8, VP8L, VP8X);
// nullopt for another format or a header too short to say (the decoder then decides)
std::optional<ImageSize> image_size(const std::string &bytes);

// the most pixels an image may claim: 100,000,000, or $GLUONZOO_MAX_PIXELS (as in Python)
uint64_t max_pixels();

}  // namespace gz
