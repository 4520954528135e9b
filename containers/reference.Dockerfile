# The reference server's image (rlspec-reference:latest), built by
# `make image` through the Docker API from a tar context assembled in Go
# (containers.BuildImage): the context holds this file as Dockerfile, the
# static binary as `server`, and empty `data` and `tmp` directories.
# FROM scratch: nothing is pulled.
FROM scratch
COPY --chown=65532:65532 data /data
COPY --chown=65532:65532 tmp /tmp
COPY server /server
USER 65532:65532
ENV TARGET_PORT=8080 \
    LISTEN_ADDR=0.0.0.0:8080 \
    DB_PATH=/data/rl.db \
    TMPDIR=/tmp
EXPOSE 8080
ENTRYPOINT ["/server"]
