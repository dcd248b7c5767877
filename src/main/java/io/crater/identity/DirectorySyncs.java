package io.crater.identity;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The last directory sync per provider, kept in the database so that every replica shows the same. */
@ApplicationScoped
class DirectorySyncs {

    /** What a sync counted. */
    @Schema(name = "DirectorySyncCounts")
    public record Counts(
            @Schema(description = "linked users looked up in the directory")
            int usersChecked,

            @Schema(description = "users who signed in for the first time (created or linked) since the previous sync")
            int usersLinked,

            @Schema(description = "users disabled because the directory no longer has them")
            int usersDisabled,

            int membershipsAdded,
            int membershipsRemoved,

            @Schema(description = "memberships whose role the directory changed")
            int membershipsChanged) {
        static final Counts NONE = new Counts(0, 0, 0, 0, 0, 0);
    }

    /** One sync's result. */
    @Schema(name = "DirectorySyncResult")
    public record Result(
            String provider,
            @Schema(enumeration = {"schedule", "admin"}) String trigger,

            @Schema(
                    enumeration = {"ok", "partial", "failed"},
                    description = "failed: nothing was changed (e.g. the directory could not be reached)")
            String outcome,

            Instant startedAt,
            Instant finishedAt,
            Counts counts,
            List<String> errors) {}

    private record Row(Result result) {
        static final String COLUMNS = "provider, trigger, outcome, started_at, finished_at, users_checked,"
                + " users_linked, users_disabled, memberships_added, memberships_removed, memberships_changed, errors";

        static Row of(Object[] r) {
            String errors = (String) r[11];
            return new Row(new Result(
                    (String) r[0],
                    (String) r[1],
                    (String) r[2],
                    Sql.instant(r[3]),
                    Sql.instant(r[4]),
                    new Counts(
                            ((Number) r[5]).intValue(),
                            ((Number) r[6]).intValue(),
                            ((Number) r[7]).intValue(),
                            ((Number) r[8]).intValue(),
                            ((Number) r[9]).intValue(),
                            ((Number) r[10]).intValue()),
                    errors.isEmpty() ? List.of() : Arrays.asList(errors.split("\n"))));
        }
    }

    /** The provider's last sync, in the caller's session. */
    Uni<Optional<Result>> last(String provider) {
        return Sql.row("SELECT " + Row.COLUMNS + " FROM directory_syncs WHERE provider = ?1", provider)
                .map(r -> r.map(x -> Row.of(x).result()));
    }

    /** Users linked to the provider since its last sync started (all of them before the first), in the session. */
    Uni<Integer> linkedSince(String provider) {
        return Sql.count(
                        "SELECT count(*) FROM external_identities WHERE provider = ?1 AND linked_at >"
                                + " coalesce((SELECT started_at FROM directory_syncs WHERE provider = ?1), '-infinity')",
                        provider)
                .map(Long::intValue);
    }

    /** Replaces the provider's last result, in the caller's transaction. */
    Uni<Integer> store(Result r) {
        Counts c = r.counts();
        return Sql.update(
                "INSERT INTO directory_syncs (" + Row.COLUMNS + ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
                        + " ?11, ?12) ON CONFLICT (provider) DO UPDATE SET trigger = EXCLUDED.trigger, outcome ="
                        + " EXCLUDED.outcome, started_at = EXCLUDED.started_at, finished_at = EXCLUDED.finished_at,"
                        + " users_checked = EXCLUDED.users_checked, users_linked = EXCLUDED.users_linked,"
                        + " users_disabled = EXCLUDED.users_disabled, memberships_added = EXCLUDED.memberships_added,"
                        + " memberships_removed = EXCLUDED.memberships_removed,"
                        + " memberships_changed = EXCLUDED.memberships_changed, errors = EXCLUDED.errors",
                r.provider(),
                r.trigger(),
                r.outcome(),
                OffsetDateTime.ofInstant(r.startedAt(), ZoneOffset.UTC),
                OffsetDateTime.ofInstant(r.finishedAt(), ZoneOffset.UTC),
                c.usersChecked(),
                c.usersLinked(),
                c.usersDisabled(),
                c.membershipsAdded(),
                c.membershipsRemoved(),
                c.membershipsChanged(),
                String.join(
                        "\n", r.errors().stream().map(e -> e.replace('\n', ' ')).toList()));
    }
}
