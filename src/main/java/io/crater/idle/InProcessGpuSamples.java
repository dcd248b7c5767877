package io.crater.idle;

import io.crater.policy.IdlePolicy;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The GPU samples of a simulated cluster running in this process (docs/simulator.md), offered by the start-up wiring
 * that started it: idle detection reads them through {@link GpuMetricsSource}, never from the simulator itself.
 */
public interface InProcessGpuSamples {

    /** Reads the samples of one pod's accelerators. */
    interface Reader {
        /** The samples (percent) of each accelerator of the pod taken in [from, to]; none for an unknown pod. */
        List<IdlePolicy.Series> samples(String namespace, String pod, Instant from, Instant to);

        /**
         * The pods whose names start with {@code prefix} that the exporter has samples of, including pods deleted
         * less than its retention ago (as Prometheus keeps the series of a pod that is gone).
         */
        List<String> pods(String namespace, String prefix);
    }

    /** The reader of the simulated cluster serving the API at {@code apiUrl}, when it runs in this process. */
    Optional<Reader> at(String apiUrl);
}
