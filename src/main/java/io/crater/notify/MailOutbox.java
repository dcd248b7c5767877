package io.crater.notify;

import io.crater.platform.Sql;
import io.crater.platform.Threads;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.mailer.Mail;
import io.quarkus.mailer.reactive.ReactiveMailer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/**
 * Sends the e-mail copies of notifications. Every replica runs it: each look claims due rows with
 * {@code FOR UPDATE SKIP LOCKED}, so two replicas never send the same mail at once, and a claim expires (twice the
 * send timeout) so a replica that dies mid-send leaves its mails due again. Delivery is at least once: a mail the
 * SMTP server took just before such a death is sent twice. A failed mail is tried again after a doubling wait and
 * given up after {@code crater.mail.max-attempts}, with the error kept on the row.
 */
@ApplicationScoped
class MailOutbox {

    private static final Logger LOG = Logger.getLogger(MailOutbox.class);

    @Inject
    Addresses addresses;

    @Inject
    MailConfig config;

    @Inject
    ReactiveMailer mailer;

    @Inject
    MeterRegistry meters;

    private final ScheduledExecutorService worker = Threads.scheduler("crater-mail");

    /** One claimed mail, with its user's address. */
    record Due(long id, String kind, String message, String link, String email, String name, int attempts) {}

    /** One claimed mail as stored. */
    record Claimed(long id, long userId, String kind, String message, String link, int attempts) {
        static final String COLUMNS = "n.id, n.user_id, n.kind, n.message, n.link, n.mail_attempts";

        static Claimed of(Object[] r) {
            return new Claimed(
                    Sql.longOf(r[0]),
                    Sql.longOf(r[1]),
                    (String) r[2],
                    (String) r[3],
                    (String) r[4],
                    ((Number) r[5]).intValue());
        }

        Due to(Addresses.Address a) {
            return new Due(
                    id, kind, message, link, a == null ? null : a.email(), a == null ? null : a.name(), attempts);
        }
    }

    void onStart(@Observes StartupEvent event) {
        // Every outcome's counter exists from the start (at 0), so a dashboard's rate is 0 rather than no series.
        for (String outcome : java.util.List.of("sent", "retry", "failed")) {
            meters.counter("crater.mail", "outcome", outcome);
        }
        if (!config.enabled()) {
            return;
        }
        var c = ConfigProvider.getConfig();
        LOG.infof(
                "mail: notifications of kinds %s are mailed through %s:%s",
                config.kinds(),
                c.getOptionalValue("quarkus.mailer.host", String.class).orElse("localhost"),
                c.getOptionalValue("quarkus.mailer.port", String.class).orElse("25 (or 465 with TLS)"));
        long every = config.pollInterval().toMillis();
        worker.scheduleWithFixedDelay(this::sendDue, every, every, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        worker.shutdownNow();
    }

    private void sendDue() {
        try {
            List<Due> due;
            do {
                due = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(this::claim));
                for (Due d : due) {
                    send(d);
                }
            } while (due.size() == config.batch() && !worker.isShutdown());
        } catch (Throwable e) {
            if (!worker.isShutdown()) {
                LOG.warn("mail: looking for due mails failed; the next look retries", e);
            }
        }
    }

    private io.smallrye.mutiny.Uni<List<Due>> claim() {
        long claimSeconds = Math.max(1, config.sendTimeout().multipliedBy(2).toSeconds());
        return Sql.rows(
                        "UPDATE notifications n SET mail_state = 'sending', mail_attempts = n.mail_attempts + 1,"
                                + " mail_due_at = now() + make_interval(secs => ?2)"
                                + " WHERE n.id IN ("
                                + "   SELECT id FROM notifications WHERE mail_state IN ('pending', 'sending')"
                                + "   AND mail_due_at <= now() ORDER BY mail_due_at LIMIT ?1 FOR UPDATE SKIP LOCKED)"
                                + " RETURNING " + Claimed.COLUMNS,
                        config.batch(),
                        (double) claimSeconds)
                .map(rows -> rows.stream().map(Claimed::of).toList())
                .flatMap(claimed -> addresses
                        .of(claimed.stream().map(Claimed::userId).collect(java.util.stream.Collectors.toSet()))
                        .map(to -> claimed.stream()
                                .map(c -> c.to(to.get(c.userId())))
                                .toList()));
    }

    private void send(Due d) {
        if (d.attempts() > config.maxAttempts()) {
            record(d, false, "given up after " + config.maxAttempts() + " attempts");
            return;
        }
        if (d.email() == null || d.email().isBlank()) {
            record(d, false, "the user has no e-mail address any more");
            return;
        }
        try {
            mailer.send(Mail.withText(
                            d.email(),
                            MailRules.subject(d.kind(), d.message()),
                            MailRules.body(
                                    d.name(), d.message(), config.consoleUrl().orElse(null), d.link())))
                    .await()
                    .atMost(config.sendTimeout());
            record(d, true, null);
        } catch (Throwable e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            boolean last = d.attempts() >= config.maxAttempts();
            LOG.warnf(
                    "mail: notification %d to %s failed (attempt %d of %d%s): %s",
                    d.id(), d.email(), d.attempts(), config.maxAttempts(), last ? ", given up" : "", why);
            record(d, false, why);
        }
    }

    /** Records an attempt's outcome: sent, due again after the retry wait, or failed for good. */
    private void record(Due d, boolean sent, String error) {
        boolean giveUp = !sent
                && (d.attempts() >= config.maxAttempts()
                        || d.email() == null
                        || d.email().isBlank());
        double retrySeconds = MailRules.retryAfter(d.attempts(), config.retryInitial(), config.retryMax())
                        .toMillis()
                / 1000.0;
        String state = sent ? "sent" : giveUp ? "failed" : "pending";
        meters.counter("crater.mail", "outcome", sent ? "sent" : giveUp ? "failed" : "retry")
                .increment();
        try {
            VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> Sql.update(
                    "UPDATE notifications SET mail_state = ?2, mail_error = ?3,"
                            + " mail_sent_at = CASE WHEN ?2 = 'sent' THEN now() END,"
                            + " mail_due_at = CASE WHEN ?2 = 'pending' THEN now() + make_interval(secs => ?4) END"
                            + " WHERE id = ?1 AND mail_state = 'sending'",
                    d.id(),
                    state,
                    error,
                    retrySeconds)));
        } catch (Throwable e) {
            LOG.warnf("mail: recording the outcome of notification %d failed: %s", d.id(), e.getMessage());
        }
    }
}
