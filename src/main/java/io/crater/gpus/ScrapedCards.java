package io.crater.gpus;

import io.smallrye.mutiny.Uni;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/** The cards of a DCGM exporter's {@code /metrics}, scraped directly (the simulated cluster's, in the embedded default). */
final class ScrapedCards implements CardSource {

    private final URI url;
    private final HttpText http;

    ScrapedCards(String url, Duration timeout) {
        this.url = URI.create(url);
        this.http = new HttpText(timeout);
    }

    @Override
    public Uni<List<CardReading>> cards() {
        return http.get(url, "text/plain")
                .map(body -> CardReadings.of(ExpositionParser.parse(body)))
                .onFailure()
                .transform(e -> new IllegalStateException(
                        "the DCGM exporter at " + url + " could not be read: " + e.getMessage()));
    }
}
