package io.crater.gpus;

import java.util.Optional;

/**
 * The DCGM-exporter endpoint of a simulated cluster running in this process (docs/simulator.md), offered by the
 * start-up wiring that started it: the GPUs view scrapes it as a cluster's Prometheus would.
 */
public interface InProcessDcgm {

    /** The metrics URL of the simulated cluster serving the API at {@code apiUrl}, when it runs in this process. */
    Optional<String> metricsUrl(String apiUrl);
}
