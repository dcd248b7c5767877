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
}
