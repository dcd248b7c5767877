package io.crater.accounting;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.platform.Actor;
import io.crater.platform.AuditTrail;
import io.crater.platform.Sql;
import io.crater.platform.Unis;
import io.crater.policy.Money;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The prices a deployment declares ({@code crater.seed}, the chart's {@code accounting.prices}): at start a declared
 * price becomes the current one, from now on, where the resource has no price yet or its current price came from a
 * declaration too ({@code crater:seed}) and differs. Once a platform admin has set a resource's price in the console
 * or the API, that price stands and the declaration no longer touches it (docs/accounting.md). Settled usage keeps
 * the price it was charged at, as for every price. A declaration that is not valid stops the start.
 */
@ApplicationScoped
public class PriceSeed {

    private static final Logger LOG = Logger.getLogger(PriceSeed.class);
    static final String BY = "crater:seed";
    static final long LOCK_KEY = 0x637261746572L + 8;

    /** One declared price. */
    record Declared(String resource, String pricePerHour) {}

    /** The part of {@code crater.seed} this reads. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Seed(List<Declared> prices) {}

    /** A checked price. */
    public record Checked(String resource, long micros) {}

    @ConfigProperty(name = "crater.seed")
    Optional<String> seed;

    @Inject
    ObjectMapper json;

    @Inject
    AuditTrail audit;

    @Inject
    Clock clock;

    void onStart(@Observes @Priority(16) StartupEvent event) throws Throwable {
        List<Checked> prices = prices(seed, json);
        if (prices.isEmpty()) {
            return;
        }
        List<String> set = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> apply(prices)));
        LOG.infof("prices: %d declared, %d set now (%s)", prices.size(), set.size(), set);
    }

    /** The prices of a declaration, checked; throws naming every error. */
    public static List<Checked> prices(Optional<String> seed, ObjectMapper json) {
        if (seed.isEmpty() || seed.get().isBlank()) {
            return List.of();
        }
        Seed parsed;
        try {
            parsed = json.readValue(seed.get(), Seed.class);
        } catch (Exception e) {
            throw new IllegalStateException("crater.seed is not the JSON Crater expects: " + e.getMessage(), e);
        }
        List<Declared> prices = parsed.prices() == null ? List.of() : parsed.prices();
        List<String> problems = new ArrayList<>();
        List<Checked> out = new ArrayList<>();
        for (int i = 0; i < prices.size(); i++) {
            Declared d = prices.get(i);
            String resource =
                    d == null || d.resource() == null ? "" : d.resource().trim();
            if (!PriceService.RESOURCE.matcher(resource).matches()) {
                problems.add("prices[" + i + "].resource: cpu, memory or an accelerator model's key");
            } else if (out.stream().anyMatch(c -> c.resource().equals(resource))) {
                problems.add("prices[" + i + "].resource: " + resource + " is declared twice");
            }
            Money.Parsed price = Money.parse(d == null ? null : d.pricePerHour(), false);
            if (!price.ok()) {
                problems.add("prices[" + i + "].pricePerHour: " + price.problem());
            } else {
                out.add(new Checked(resource, price.micros()));
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("crater.seed: " + String.join("; ", problems));
        }
        return out;
    }

    /** Current price of a resource: its amount and who set it. */
    record Current(long micros, String by) {
        static Current of(Object[] r) {
            return new Current(Sql.longOf(r[0]), (String) r[1]);
        }
    }

    /** Sets each declared price the rule above lets it set; the resources set. */
    Uni<List<String>> apply(List<Checked> prices) {
        List<String> set = new ArrayList<>();
        Instant now = clock.instant();
        return Sql.count("SELECT count(*) FROM (SELECT pg_advisory_xact_lock(?1)) AS locked", LOCK_KEY)
                .flatMap(x -> Unis.sequentially(
                        prices,
                        p -> Sql.rows(
                                        "SELECT micros_per_hour, created_by FROM prices WHERE resource = ?1"
                                                + " AND effective_from <= ?2 ORDER BY effective_from DESC LIMIT 1",
                                        p.resource(),
                                        now)
                                .flatMap(rows -> {
                                    Current current = rows.isEmpty() ? null : Current.of(rows.get(0));
                                    if (current != null
                                            && (!BY.equals(current.by()) || current.micros() == p.micros())) {
                                        return Uni.createFrom().voidItem();
                                    }
                                    set.add(p.resource());
                                    return Sql.update(
                                                    "INSERT INTO prices (resource, micros_per_hour, effective_from, created_by)"
                                                            + " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (resource, effective_from)"
                                                            + " DO NOTHING",
                                                    p.resource(),
                                                    p.micros(),
                                                    now,
                                                    BY)
                                            .flatMap(n -> audit.record(
                                                    new Actor(null, BY, null, null),
                                                    "price.set",
                                                    "price",
                                                    p.resource(),
                                                    null,
                                                    Map.of(
                                                            "pricePerHour",
                                                            Money.format(p.micros()),
                                                            "effectiveFrom",
                                                            now.toString())));
                                })))
                .replaceWith(set);
    }
}
