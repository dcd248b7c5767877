package io.crater.gpus;

import java.time.Duration;
import java.util.List;

/** The cards the GPUs page reads, from a Prometheus or straight from an exporter, for tests of other packages. */
public final class CardsFrom {

    private CardsFrom() {}

    /** A card as read: where it is, what it is, who holds it and its latest figures. */
    public record Card(
            String node, int index, String uuid, String model, String pod, Double utilisation, Long memoryUsedMiB) {

        static Card of(CardReading r) {
            return new Card(r.node(), r.index(), r.uuid(), r.modelName(), r.pod(), r.utilisation(), r.memoryUsedMiB());
        }
    }

    /** Through Prometheus's instant query API at {@code baseUrl}, as in a cluster. */
    public static List<Card> prometheus(String baseUrl) {
        return read(new PrometheusCards(baseUrl, Duration.ofSeconds(10)));
    }

    /** Scraped from a dcgm-exporter's {@code /metrics} at {@code url}. */
    public static List<Card> exporter(String url) {
        return read(new ScrapedCards(url, Duration.ofSeconds(10)));
    }

    private static List<Card> read(CardSource source) {
        return source.cards().await().atMost(Duration.ofSeconds(20)).stream()
                .map(Card::of)
                .toList();
    }
}
