package io.crater.tensorboard;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** TensorBoard panels ({@code crater.tensorboard.*}): the server's image and size, and when idle panels stop. */
@ConfigMapping(prefix = "crater.tensorboard")
public interface TensorboardConfig {

    /** The image a panel's server runs ({@code tensorboard} on its path). */
    @WithDefault("tensorflow/tensorflow:2.17.0")
    String image();

    /** CPU of a panel's pod (a Kubernetes quantity); panels never ask for accelerators. */
    @WithDefault("1")
    String cpu();

    /** Memory of a panel's pod. */
    @WithDefault("2Gi")
    String memory();

    /** A running panel nobody used through the proxy for this long is stopped (0: never). */
    @WithDefault("60m")
    Duration idleTimeout();

    /** How often the leader looks for idle panels. */
    @WithDefault("1m")
    Duration checkInterval();
}
