package io.crater.notify;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * E-mail copies of notifications (docs/governance.md, "Notifications and e-mail"). The SMTP server itself is
 * Quarkus's mailer ({@code quarkus.mailer.host}, {@code .port}, {@code .from}, {@code .username}, {@code .password},
 * {@code .start-tls}, {@code .tls}).
 */
@ConfigMapping(prefix = "crater.mail")
public interface MailConfig {

    /** Whether notifications are also sent by e-mail; turn on once the SMTP server is configured. */
    @WithDefault("false")
    boolean enabled();

    /**
     * The notification kinds that are mailed to a user who has not chosen otherwise (docs/notifications.md); an
     * entry ending in {@code *} names every kind with that prefix ({@code approval.*}).
     */
    @WithDefault("job.failed,job.idle-warning,job.idle-reclaimed,job.reclaimed,job.time-limit,approval.*")
    List<String> kinds();

    /** The console's address as its users reach it, for the link in a mail ({@code https://crater.example.org}). */
    Optional<String> consoleUrl();

    /** How often a replica looks for mails that are due. */
    @WithDefault("5s")
    Duration pollInterval();

    /** How many mails one look claims at most. */
    @WithDefault("20")
    int batch();

    /** The wait before the second attempt of a mail that failed; it doubles with each further failure. */
    @WithDefault("30s")
    Duration retryInitial();

    /** The longest wait between two attempts. */
    @WithDefault("1h")
    Duration retryMax();

    /** After this many failed attempts a mail is given up ({@code failed}, with the last error). */
    @WithDefault("8")
    int maxAttempts();

    /** How long one SMTP delivery may take; a claim lasts twice as long, then the mail is due again. */
    @WithDefault("30s")
    Duration sendTimeout();
}
