#!/usr/bin/env bash
# Install what the services need and build them into OUT (default out/deploy):
#   OUT/onnxruntime/{include,lib}  ONNX Runtime C/C++ headers + libonnxruntime.so from the npm package
#                                  com.github.asus4.onnxruntime (headers inside Plugins/Android/onnxruntime.aar)
#   OUT/cpp/gluonzoo-serve, OUT/cpp/gluonzoo-predict   the C++ service and CLI (CMake)
#   OUT/java/gluonzoo/*.class                          the Java service (javac, OpenCV's Java API)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-out/deploy}
ORT_NPM=com.github.asus4.onnxruntime
ORT_NPM_VERSION=0.4.9                                  # ships ONNX Runtime 1.29.0 (C API version 29)
ORT_NPM_SHA1=3659f34012db8208ffb7f67d704204cb08792fed   # shasum npm pack reported for that tarball
APT_LIBS="libopencv-dev libopencv-java libcpp-httplib-dev nlohmann-json3-dev"
# tools: a command already on PATH (e.g. npm from a Node.js install, a JDK 17) is used as it is
declare -A TOOLS=([cmake]=cmake [g++]=g++ [pkg-config]=pkg-config [unzip]=unzip [npm]=npm [javac]=openjdk-17-jdk-headless)

missing=$(for p in $APT_LIBS; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done
          for t in "${!TOOLS[@]}"; do command -v "$t" >/dev/null || echo "${TOOLS[$t]}"; done)
if [ -n "$missing" ]; then
  echo "build.sh: apt-get install" $missing
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 $missing >/dev/null
fi

ORT=$OUT/onnxruntime
if [ ! -f "$ORT/.ok-$ORT_NPM_VERSION" ]; then
  rm -rf "$ORT" && mkdir -p "$ORT/include" "$ORT/lib" "$OUT/npm"
  (cd "$OUT/npm" && [ -f "$ORT_NPM-$ORT_NPM_VERSION.tgz" ] || npm pack --silent "$ORT_NPM@$ORT_NPM_VERSION" >/dev/null)
  tgz=$OUT/npm/$ORT_NPM-$ORT_NPM_VERSION.tgz
  echo "$ORT_NPM_SHA1  $tgz" | sha1sum -c --quiet
  tar -xzf "$tgz" -C "$OUT/npm" package/Plugins/Linux/x64/libonnxruntime.so package/Plugins/Android/onnxruntime.aar
  unzip -q -o -j "$OUT/npm/package/Plugins/Android/onnxruntime.aar" 'headers/*' -d "$ORT/include"
  cp "$OUT/npm/package/Plugins/Linux/x64/libonnxruntime.so" "$ORT/lib/"
  ln -sf libonnxruntime.so "$ORT/lib/libonnxruntime.so.1"   # its SONAME; official releases ship this link
  rm -rf "$OUT/npm/package"
  touch "$ORT/.ok-$ORT_NPM_VERSION"
fi

cmake -S scripts/deploy/cpp -B "$OUT/cpp" -DONNXRUNTIME_ROOT="$(realpath "$ORT")" >/dev/null
cmake --build "$OUT/cpp" -j"$(nproc)" >/dev/null
rm -rf "$OUT/java/gluonzoo" && mkdir -p "$OUT/java"   # no classes left from renamed sources (Classifier.java)
javac -nowarn -d "$OUT/java" -cp /usr/share/java/opencv.jar scripts/deploy/java/src/gluonzoo/*.java 2>&1 | grep -v '^Note:' || true
echo "build.sh: built $OUT/cpp/gluonzoo-serve, $OUT/cpp/gluonzoo-predict, $OUT/java (ONNX Runtime from $ORT_NPM@$ORT_NPM_VERSION)"
