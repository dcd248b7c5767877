package io.crater.images;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The image catalogue (docs/assets.md, "Images"): how Crater asks registries about references. */
@ConfigMapping(prefix = "crater.images")
public interface ImagesConfig {

    /** How long one request to a registry (or its token service) may take, connecting included. */
    @WithDefault("10s")
    Duration registryTimeout();

    /**
     * Registries (host or host:port) reached over plain HTTP instead of HTTPS, as Docker's insecure registries.
     * Registries on loopback ({@code localhost}, {@code 127.*}) always are.
     */
    Optional<List<String>> plainHttpRegistries();

    /**
     * The registry (host or host:port) image builds push to without a credential of the user's (docs/assets.md,
     * "Builds"); unset: every build names a registry credential of its owner's for its destination.
     */
    Optional<String> buildRegistry();

    /** The builder image builds run with: {@code buildkit} (rootless BuildKit) or {@code kaniko}. */
    @WithDefault("buildkit")
    String builder();

    /** The rootless BuildKit image (its {@code buildctl-daemonless.sh} builds and pushes). */
    @WithDefault("moby/buildkit:rootless")
    String buildkitImage();

    /** Kaniko's executor image. */
    @WithDefault("gcr.io/kaniko-project/executor:latest")
    String kanikoImage();

    /** The CPU a build's job asks for when the build names none. */
    @WithDefault("2")
    String buildCpu();

    /** The memory a build's job asks for when the build names none. */
    @WithDefault("4Gi")
    String buildMemory();

    /** The time limit of a build's job. */
    @WithDefault("2h")
    String buildTimeLimit();

    /** How often ended build jobs are looked for, to check their image and put it in the catalogue. */
    @WithDefault("2s")
    Duration buildWatchInterval();
}
