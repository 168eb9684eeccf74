# syntax=docker/dockerfile:1
#
# Companion in a container: a static binary on an empty image, run as a
# user without privileges, its data in the /data volume.
#
#   docker build -t companion .
#   docker run -d --name companion --network host -v companion-data:/data companion
#
# Ports: 8080 is where players connect (HTTP, WebSocket); 8081 is the host
# console, for the game master on this machine only. With --network host
# (Linux) the console listens on the host's own 127.0.0.1:8081, exactly as
# outside a container, and mDNS can advertise companion.local to the
# network. Without host networking, see compose.yaml's bridge service and
# docs/install.md: the console then binds inside the container with
# --host-addr-container and its port is published on 127.0.0.1 only.

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION} AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Set by the one who builds: docker build --build-arg VERSION=1.2.0 ...
ARG VERSION=0.0.0-container
ARG COMMIT=unknown
ARG DATE=unknown
# Set by docker buildx for each platform of a multi-arch image.
ARG TARGETOS TARGETARCH TARGETVARIANT
# The same build as the release archives' (.goreleaser.yaml; a test holds
# the two equal).
RUN GOOS=${TARGETOS} GOARCH=${TARGETARCH} GOARM=${TARGETVARIANT#v} \
    CGO_ENABLED=0 go build -trimpath -tags netgo,osusergo \
    -ldflags "-s -w -X github.com/vttapp/companion/core.Version=${VERSION} -X github.com/vttapp/companion/core.Commit=${COMMIT} -X github.com/vttapp/companion/core.Date=${DATE}" \
    -o /out/companion ./cmd/companion
# The folders the final image needs, owned by its user: the data volume
# and a temporary folder.
RUN mkdir -p /out/data /out/tmp && chown 65532:65532 /out/data && chmod 1777 /out/tmp

FROM scratch
# Certificates for https imports (manifests, downloads).
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/companion /usr/local/bin/companion
COPY --from=build --chown=65532:65532 /out/data /data
COPY --from=build /out/tmp /tmp
USER 65532:65532
ENV COMPANION_DATA=/data \
    HOME=/data \
    TMPDIR=/tmp
VOLUME /data
# 8080: players. 8081: the host console (loopback; see above).
EXPOSE 8080 8081
# companion health asks the host console whether the store answers.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["/usr/local/bin/companion", "health"]
ENTRYPOINT ["/usr/local/bin/companion"]
CMD ["serve"]
