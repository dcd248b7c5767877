package io.crater.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.crater.policy.ClusterReadiness;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Volcano's scheduler configuration ({@code volcano-scheduler.conf} of its ConfigMap) as the readiness report reads
 * it: {@code actions: "enqueue, allocate, backfill"} and the plugin names of every tier ({@code tiers[].plugins[].name}).
 */
final class SchedulerConfigs {

    /** The ConfigMap key Volcano's scheduler reads its configuration from. */
    static final String KEY = "volcano-scheduler.conf";

    private SchedulerConfigs() {}

    static ClusterReadiness.SchedulerConfig parse(String source, JsonNode conf) {
        if (conf == null || !conf.isObject()) {
            return ClusterReadiness.SchedulerConfig.unreadable(source, "not a YAML mapping");
        }
        List<String> actions = Arrays.stream(conf.path("actions").asText("").split(","))
                .map(String::trim)
                .filter(a -> !a.isEmpty())
                .toList();
        List<String> plugins = new ArrayList<>();
        for (JsonNode tier : conf.path("tiers")) {
            for (JsonNode plugin : tier.path("plugins")) {
                String name = plugin.path("name").asText("").trim();
                if (!name.isEmpty()) {
                    plugins.add(name);
                }
            }
        }
        return ClusterReadiness.SchedulerConfig.read(source, actions, plugins);
    }
}
