package io.crater.accounting;

import io.crater.account.AccountService;
import io.crater.job.JobHoldings;
import io.crater.platform.Sql;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Accounting's figures at {@code /q/metrics}, refreshed after each settlement run: every account's balance (what its
 * budget has left, or minus what it spent without one) and what its running jobs hold now per resource.
 */
@ApplicationScoped
public class AccountingMetrics {

    @Inject
    MeterRegistry meters;

    @Inject
    AccountService accounts;

    private MultiGauge balance;
    private MultiGauge held;
    private MultiGauge deviceHours;

    void onStart(@Observes StartupEvent event) {
        balance = MultiGauge.builder("crater.account.balance")
                .description(
                        "What the account's book holds, in the currency's units (negative: spent beyond what was issued)")
                .register(meters);
        held = MultiGauge.builder("crater.account.held")
                .description("What the account's running jobs hold now: devices, cores or GiB")
                .register(meters);
        deviceHours = MultiGauge.builder("crater.account.device.hours")
                .description("Device-hours the account's jobs held, measured (with utilisation samples) and used"
                        + " (weighted by utilisation), per accelerator model, since the account's first job;"
                        + " increase() over a range gives that range's, used/measured its efficiency")
                .register(meters);
    }

    /** Reads the balances, holdings and device-hours and replaces the gauges' rows, in the caller's session. */
    public Uni<Void> refresh() {
        return balancesAndHoldings().call(this::deviceHours);
    }

    /**
     * An account's sums of one accelerator model since its first job, in device-milliseconds: held (milli-device-seconds
     * are device-milliseconds too), measured and used.
     */
    private record DeviceMs(long account, String resource, double held, double measured, double used) {
        static DeviceMs of(Object[] r) {
            return new DeviceMs(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    ((Number) r[2]).doubleValue(),
                    ((Number) r[3]).doubleValue(),
                    ((Number) r[4]).doubleValue());
        }

        /** The sums in gauge order: held, measured, used. */
        double[] byKind() {
            return new double[] {held, measured, used};
        }
    }

    private Uni<Void> deviceHours() {
        return Sql.rows(
                        "SELECT account_id, resource, sum(held_milli_s), sum(measured_ms), sum(used_ms) FROM usage_daily"
                                + " WHERE resource NOT IN ('cpu', 'memory') GROUP BY account_id, resource")
                .map(rows -> rows.stream().map(DeviceMs::of).toList())
                .flatMap(sums -> {
                    Set<Long> ids = new HashSet<>();
                    sums.forEach(d -> ids.add(d.account()));
                    return accounts.slugs(ids).invoke(slugs -> {
                        List<MultiGauge.Row<?>> out = new ArrayList<>();
                        for (DeviceMs d : sums) {
                            String account = slugs.getOrDefault(d.account(), String.valueOf(d.account()));
                            String[] kinds = {"held", "measured", "used"};
                            double[] ms = d.byKind();
                            for (int k = 0; k < 3; k++) {
                                out.add(MultiGauge.Row.of(
                                        Tags.of("account", account, "resource", d.resource(), "kind", kinds[k]),
                                        ms[k] / 3_600_000.0));
                            }
                        }
                        if (deviceHours != null) {
                            deviceHours.register(out, true);
                        }
                    });
                })
                .replaceWithVoid();
    }

    private Uni<Void> balancesAndHoldings() {
        return Sql.rows("SELECT book, balance FROM ledger_balances WHERE book LIKE 'account:%'")
                .map(rows -> rows.stream().map(Ledger.Balance::of).toList())
                .flatMap(books -> JobHoldings.openHoldingsByAccount().flatMap(holdings -> {
                    Set<Long> ids = new HashSet<>();
                    books.forEach(book -> ids.add(book.accountId()));
                    holdings.forEach(held -> ids.add(held.account()));
                    return accounts.slugs(ids).invoke(slugs -> {
                        List<MultiGauge.Row<?>> b = new ArrayList<>();
                        for (Ledger.Balance book : books) {
                            long id = book.accountId();
                            b.add(MultiGauge.Row.of(
                                    Tags.of("account", slugs.getOrDefault(id, String.valueOf(id))),
                                    book.balance() / 1_000_000.0));
                        }
                        List<MultiGauge.Row<?>> h = new ArrayList<>();
                        for (JobHoldings.AccountHeld held : holdings) {
                            long id = held.account();
                            String resource = held.resource();
                            double milli = held.milli();
                            double units = resource.equals("memory") ? milli / 1000 / (1L << 30) : milli / 1000;
                            h.add(MultiGauge.Row.of(
                                    Tags.of(
                                            "account",
                                            slugs.getOrDefault(id, String.valueOf(id)),
                                            "resource",
                                            resource),
                                    units));
                        }
                        if (balance != null) {
                            balance.register(b, true);
                            held.register(h, true);
                        }
                    });
                }))
                .replaceWithVoid();
    }
}
