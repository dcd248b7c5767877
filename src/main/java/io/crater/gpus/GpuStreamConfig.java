package io.crater.gpus;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The live per-job GPU metrics stream (docs/monitoring.md, "Live metrics of a job"). */
@ConfigMapping(prefix = "crater.gpus.stream")
public interface GpuStreamConfig {

    /** How often a followed job's cards are read: one query of the source per job and step, whoever follows. */
    @WithDefault("5s")
    Duration step();

    /** Steps a job's feed keeps, and the most a follower's first window may ask for. */
    @WithDefault("120")
    int window();

    /** Events a follower may fall behind before it is disconnected (it resumes with Last-Event-ID). */
    @WithDefault("64")
    int buffer();

    /** How often a comment line keeps a stream open through proxies that close idle connections. */
    @WithDefault("20s")
    Duration heartbeat();
}
