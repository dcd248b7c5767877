package io.crater.gpus;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cards from DCGM-exporter samples, wherever they were read (a scrape of the exporter or a Prometheus query): one
 * card per ({@code Hostname}, {@code gpu}); the holding pod is {@code exported_pod}/{@code exported_namespace} when a
 * Prometheus scrape renamed the exporter's labels, else {@code pod}/{@code namespace} (an empty pod is a free card).
 * Samples of other metrics, without a node or index, or with a value that is not finite are skipped: a reading
 * nobody has stays null, never 0.
 */
final class CardReadings {

    static final String UTIL = "DCGM_FI_DEV_GPU_UTIL";
    static final String FB_USED = "DCGM_FI_DEV_FB_USED";
    static final String FB_FREE = "DCGM_FI_DEV_FB_FREE";
    static final String POWER = "DCGM_FI_DEV_POWER_USAGE";
    static final String TEMP = "DCGM_FI_DEV_GPU_TEMP";
    static final String XID = "DCGM_FI_DEV_XID_ERRORS";
    static final String ECC_DBE = "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL";

    /** The metrics a card's readings come from. */
    static final List<String> METRICS = List.of(UTIL, FB_USED, FB_FREE, POWER, TEMP, XID, ECC_DBE);

    private CardReadings() {}

    /** A card being assembled from its samples. */
    private static final class Card {
        final String node;
        final int index;
        String uuid;
        String modelName;
        String namespace;
        String pod;
        final Map<String, Double> values = new LinkedHashMap<>();

        Card(String node, int index) {
            this.node = node;
            this.index = index;
        }
    }

    static List<CardReading> of(List<ExpositionParser.Sample> samples) {
        Map<String, Card> cards = new LinkedHashMap<>();
        for (ExpositionParser.Sample s : samples) {
            if (!METRICS.contains(s.name())) {
                continue;
            }
            String node = s.labels().getOrDefault("Hostname", "");
            Integer index = index(s.labels().get("gpu"));
            if (node.isEmpty() || index == null) {
                continue;
            }
            Card card = cards.computeIfAbsent(node + "\n" + index, k -> new Card(node, index));
            card.uuid = first(card.uuid, s.labels().get("UUID"));
            card.modelName = first(card.modelName, s.labels().get("modelName"));
            String pod = nonEmpty(s.labels().get("exported_pod"));
            String namespace = nonEmpty(s.labels().get("exported_namespace"));
            if (pod == null) {
                pod = nonEmpty(s.labels().get("pod"));
                namespace = nonEmpty(s.labels().get("namespace"));
            }
            if (pod != null && card.pod == null) {
                card.pod = pod;
                card.namespace = namespace;
            }
            if (Double.isFinite(s.value())) {
                card.values.putIfAbsent(s.name(), s.value());
            }
        }
        List<CardReading> out = new ArrayList<>();
        for (Card c : cards.values()) {
            Double used = c.values.get(FB_USED);
            Double free = c.values.get(FB_FREE);
            out.add(new CardReading(
                    c.node,
                    c.index,
                    c.uuid,
                    c.modelName,
                    c.namespace,
                    c.pod,
                    c.values.get(UTIL),
                    used == null ? null : Math.round(used),
                    used == null || free == null ? null : Math.round(used + free),
                    c.values.get(POWER),
                    c.values.get(TEMP),
                    whole(c.values.get(XID)),
                    whole(c.values.get(ECC_DBE))));
        }
        out.sort(Comparator.comparing(CardReading::node).thenComparingInt(CardReading::index));
        return out;
    }

    private static Long whole(Double v) {
        return v == null ? null : Math.round(v);
    }

    private static Integer index(String gpu) {
        if (gpu == null) {
            return null;
        }
        try {
            return Integer.parseInt(gpu.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String first(String have, String next) {
        return have != null ? have : nonEmpty(next);
    }

    private static String nonEmpty(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
