package io.crater.downloads;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Downloads from model hubs (docs/assets.md, downloads): where the hubs are, what runs a download, the limits. */
@ConfigMapping(prefix = "crater.downloads")
public interface DownloadsConfig {

    /** Hugging Face. */
    @WithName("huggingface")
    Hub huggingface();

    /** ModelScope. */
    @WithName("modelscope")
    ModelScope modelscope();

    /** ModelScope's address, its mirrors, and how its client gets into a download job. */
    interface ModelScope {
        /** The hub's address, as the client's {@code --endpoint} takes it (a mirror's address works as well). */
        @WithDefault("https://www.modelscope.cn")
        String endpoint();

        /** Other addresses of the same hub (mirrors) a retry may name. */
        Optional<List<String>> mirrors();

        /**
         * A shell command run before the client in a ModelScope download job (installs {@code modelscope}, whose
         * {@code modelscope download} takes {@code --endpoint} from 1.36.3 on, into the pod's {@code /tmp/hub-client});
         * empty for an image that has the client already.
         */
        @WithDefault("pip install --quiet --no-cache-dir --target /tmp/hub-client 'modelscope>=1.36.3,<1.38'")
        String setup();
    }

    /** A hub's address and the mirrors a retry may name instead. */
    interface Hub {
        /** The hub's address, as {@code HF_ENDPOINT} takes it (a mirror's address works as well). */
        @WithDefault("https://huggingface.co")
        String endpoint();

        /** Other addresses of the same hub (mirrors) a retry may name. */
        Optional<List<String>> mirrors();
    }

    /** The image of a download job: one with Python (and ideally the hub's client installed). */
    @WithDefault("docker.io/library/python:3.12-slim")
    String image();

    /**
     * A shell command run before the client in the download job (installs the client into the pod's {@code
     * /tmp/hub-client}, which goes first on its {@code PATH} and {@code PYTHONPATH}); empty for an image that has {@code
     * huggingface-cli} already.
     */
    @WithDefault("pip install --quiet --no-cache-dir --target /tmp/hub-client 'huggingface_hub[cli]>=0.23,<1'")
    String setup();

    /** CPU and memory of a download job. */
    @WithDefault("1")
    String cpu();

    @WithDefault("2Gi")
    String memory();

    /** Downloads a user may have running at once. */
    @WithDefault("3")
    int maxConcurrent();

    /** Downloads (starts, resumes and retries) a user may begin within {@link #window()}. */
    @WithDefault("20")
    int maxPerWindow();

    @WithDefault("24h")
    Duration window();

    /** How long one request to a hub's API may take, connecting included. */
    @WithDefault("20s")
    Duration hubTimeout();

    /** How often running downloads are looked at (their jobs ended? then verified and catalogued). */
    @WithDefault("2s")
    Duration checkInterval();
}
