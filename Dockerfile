# gpulint as a container image: built from source on Debian 12, shipped as the static binary
# alone. docker build -t gpulint . && docker run --rm -v "$PWD:/src" -w /src gpulint lint .
FROM debian:12 AS build
WORKDIR /gpulint
COPY . .
RUN scripts/install-deps && \
    cmake -S . -B build-dist -DCMAKE_BUILD_TYPE=Release -DGPULINT_TESTS=OFF \
      -DGPULINT_FULLY_STATIC=ON && \
    cmake --build build-dist -j "$(nproc)" && \
    strip build-dist/gpulint && \
    build-dist/gpulint version

FROM scratch
COPY --from=build /gpulint/build-dist/gpulint /usr/bin/gpulint
ENTRYPOINT ["/usr/bin/gpulint"]
CMD ["lint", "."]
