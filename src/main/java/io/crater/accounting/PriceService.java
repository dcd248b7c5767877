package io.crater.accounting;

import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.crater.policy.Money;
import io.crater.policy.PriceBook;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** The versioned price book: a price per unit-hour of each resource from a time on, never rewritten. */
@ApplicationScoped
public class PriceService {

    /** A resource key as quotas name them: {@code cpu}, {@code memory} or an accelerator model. */
    static final Pattern RESOURCE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");

    @Inject
    AccountingConfig config;

    @Inject
    AuditTrail audit;

    @Inject
    Clock clock;

    /** A price as the API shows it. */
    public record PriceView(
            String resource, String unit, String pricePerHour, long microsPerHour, Instant effectiveFrom, String by) {}

    /** What a platform admin sends to set a price. */
    public record NewPrice(String resource, String pricePerHour, String effectiveFrom) {}

    /** The price book and what it is in. */
    public record Book(String currency, List<PriceView> current, List<PriceView> history) {}

    /** The unit a resource's price is per. */
    static String unit(String resource) {
        return switch (resource) {
            case "cpu" -> "core-hour";
            case "memory", io.crater.policy.Settlement.STORAGE -> "GiB-hour";
            default -> "device-hour";
        };
    }

    /** A price as settlement reads it: micro-units per unit-hour of a resource from a time on. */
    private record Version(String resource, long microsPerHour, Instant effectiveFrom) {
        static final String COLUMNS = "resource, micros_per_hour, effective_from";

        static Version of(Object[] r) {
            return new Version((String) r[0], Sql.longOf(r[1]), Sql.instant(r[2]));
        }

        PriceBook.Price price() {
            return new PriceBook.Price(resource, microsPerHour, effectiveFrom);
        }
    }

    /** Every price ever set, in the caller's session. */
    public Uni<PriceBook> book() {
        return Sql.rows("SELECT " + Version.COLUMNS + " FROM prices").map(rows -> {
            List<PriceBook.Price> out = new ArrayList<>(rows.size());
            rows.forEach(r -> out.add(Version.of(r).price()));
            return new PriceBook(out);
        });
    }

    /** A price with who set it, as the book's history lists it. */
    private record Listed(String resource, long microsPerHour, Instant effectiveFrom, String createdBy) {
        static final String COLUMNS = "resource, micros_per_hour, effective_from, created_by";

        static Listed of(Object[] r) {
            return new Listed((String) r[0], Sql.longOf(r[1]), Sql.instant(r[2]), (String) r[3]);
        }

        PriceView view() {
            return PriceService.view(resource, microsPerHour, effectiveFrom, createdBy);
        }
    }

    /** The book as anyone signed in may read it: prices in force now and every version. */
    public Uni<Book> list() {
        return Panache.withSession(() -> Sql.rows(
                        "SELECT " + Listed.COLUMNS + " FROM prices ORDER BY resource, effective_from")
                .map(rows -> {
                    Instant now = clock.instant();
                    List<PriceView> history = new ArrayList<>();
                    Map<String, PriceView> current = new java.util.TreeMap<>();
                    for (Object[] r : rows) {
                        PriceView v = Listed.of(r).view();
                        history.add(v);
                        if (!v.effectiveFrom().isAfter(now)) {
                            current.put(v.resource(), v);
                        }
                    }
                    return new Book(config.currency(), List.copyOf(current.values()), history);
                }));
    }

    static PriceView view(String resource, long micros, Instant from, String by) {
        return new PriceView(resource, unit(resource), Money.format(micros), micros, from, by);
    }

    /**
     * Adds a price (platform admins): from {@code effectiveFrom} (default now) on; a time before now is refused,
     * since settled windows keep the price they were charged at.
     */
    public Uni<PriceView> add(NewPrice req, Caller caller) {
        if (!caller.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only a platform admin may set prices");
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        String resource =
                req == null || req.resource() == null ? "" : req.resource().trim();
        if (!RESOURCE.matcher(resource).matches()) {
            errors.add(new Problem.FieldError("resource", "cpu, memory, storage or an accelerator model"));
        }
        Money.Parsed price = Money.parse(req == null ? null : req.pricePerHour(), false);
        if (!price.ok()) {
            errors.add(new Problem.FieldError("pricePerHour", price.problem()));
        }
        Instant now = clock.instant();
        Instant from = now;
        if (req != null && req.effectiveFrom() != null && !req.effectiveFrom().isBlank()) {
            try {
                from = Instant.parse(req.effectiveFrom().trim());
                if (from.isBefore(now.minusSeconds(60))) {
                    errors.add(new Problem.FieldError(
                            "effectiveFrom",
                            "must not be in the past: settled usage keeps the price it was charged at"));
                }
            } catch (DateTimeParseException e) {
                errors.add(new Problem.FieldError("effectiveFrom", "a time such as 2027-01-01T00:00:00Z"));
            }
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidPrice", "the price is not valid", errors);
        }
        Instant effective = from.isBefore(now) ? now : from;
        String by = caller.user().username();
        return Panache.withTransaction(() -> Sql.update(
                                "INSERT INTO prices (resource, micros_per_hour, effective_from, created_by)"
                                        + " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (resource, effective_from) DO NOTHING",
                                resource,
                                price.micros(),
                                effective,
                                by)
                        .invoke(n -> {
                            if (n == 0) {
                                throw ApiException.conflict(
                                        "PriceExists",
                                        "a price of " + resource + " from " + effective + " exists already");
                            }
                        })
                        .call(n -> audit.record(
                                caller.actor(null),
                                "price.set",
                                "price",
                                resource,
                                null,
                                Map.of(
                                        "pricePerHour",
                                        Money.format(price.micros()),
                                        "effectiveFrom",
                                        effective.toString()))))
                .map(n -> view(resource, price.micros(), effective, by));
    }
}
