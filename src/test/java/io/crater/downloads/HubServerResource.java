package io.crater.downloads;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** Starts the test hub ({@link HubServer}) before Crater and points Crater's Hugging Face and ModelScope addresses at it. */
public class HubServerResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        String url = HubServer.get().url();
        return Map.of(
                "crater.downloads.modelscope.endpoint",
                url,
                "crater.downloads.modelscope.mirrors",
                url + "/mirror",
                "crater.downloads.huggingface.endpoint",
                url,
                "crater.downloads.huggingface.mirrors",
                url + "/mirror",
                "crater.downloads.max-concurrent",
                "2",
                "crater.downloads.check-interval",
                "500ms");
    }

    @Override
    public void stop() {
        // the server lives as long as the tests' JVM
    }
}
