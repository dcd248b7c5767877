package io.crater.accounting;

import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * The cluster's accelerator holding per model and hour from the hourly rollup, summed over every account and member:
 * what the GPUs page plots against the cards (docs/monitoring.md). It names no account or member, so anyone signed
 * in may read it; the per-account figures stay in {@link UsageReports} with their own rules.
 */
@ApplicationScoped
public class AcceleratorHours {

    /**
     * One model's hour over the whole cluster: milli-device-seconds held (device-milliseconds), device-milliseconds
     * measured and used (utilisation-weighted), as settlement and the meter have added them so far.
     */
    public record Hour(String model, Instant hour, long heldMs, long measuredMs, long usedMs) {

        static Hour of(Object[] r) {
            return new Hour(
                    (String) r[0],
                    Sql.instant(r[1]),
                    new BigDecimal(r[2].toString()).longValue(),
                    Sql.longOf(r[3]),
                    Sql.longOf(r[4]));
        }
    }

    /** The accelerator hours from {@code from} (an hour's start) on, by model then hour; CPU and memory left out. */
    public Uni<List<Hour>> since(Instant from) {
        return Panache.withSession(() -> Sql.rows(
                        "SELECT resource, hour, sum(held_milli_s), sum(measured_ms), sum(used_ms) FROM usage_hourly"
                                + " WHERE hour >= CAST(?1 AS timestamptz) AND resource NOT IN ('cpu', 'memory')"
                                + " GROUP BY resource, hour ORDER BY resource, hour",
                        from)
                .map(rows -> rows.stream().map(Hour::of).toList()));
    }
}
