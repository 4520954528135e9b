# The harness image (rlspec:latest), built by `make image` through the
# Docker API from a tar context assembled in Go (containers.BuildHarnessImage):
# the static rlspec and loadgen binaries (the Gherkin features are embedded
# in rlspec), an empty /tmp and /reports, both writable by any user so
# `docker run -u "$(id -u):$(id -g)" -v "$PWD/reports:/reports"` works.
# FROM scratch: nothing is pulled.
#
#   docker run --rm --network host -u "$(id -u):$(id -g)" -v "$PWD/reports:/reports" \
#     -e TARGET_URL=http://127.0.0.1:8080 rlspec:latest acceptance
FROM scratch
COPY tmp /tmp
COPY reports /reports
COPY rlspec /rlspec
COPY loadgen /loadgen
USER 65532:65532
ENV REPORT_DIR=/reports \
    TMPDIR=/tmp
WORKDIR /reports
ENTRYPOINT ["/rlspec"]
CMD ["acceptance"]
