// Reads the metadata_props of an ONNX file (ModelProto field 14: StringStringEntryProto {1: key, 2: value})
// straight from the protobuf wire format, skipping every other field, so the OpenCV backend (whose API does not
// expose metadata) reads the same preprocessing as the ORT backend and the Python exporter wrote.
#pragma once
#include <map>
#include <string>

namespace gz {
std::map<std::string, std::string> read_onnx_metadata(const std::string &path);
}
