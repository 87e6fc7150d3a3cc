#!/bin/sh
# Installs every Debian 12 package the build, the tests and the studio need.
set -eu
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential cmake ninja-build pkg-config ccache git clang \
  libabsl-dev libprotobuf-dev protobuf-compiler libeigen3-dev libzstd-dev \
  nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev \
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6svg6-dev libqt6opengl6-dev \
  libgl-dev libgl1-mesa-dev libegl1-mesa-dev libvulkan-dev libxkbcommon-dev \
  libgraphviz-dev graphviz fonts-dejavu-core xvfb xauth >/dev/null
