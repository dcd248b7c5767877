package io.crater.account;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * Who pays for each file space (docs/accounting.md, "Storage"): a team account for {@code accounts/<slug>}, and a
 * user's personal account (slug {@code u-<user slug>}, the user its admin) for {@code users/<user slug>}.
 */
@ApplicationScoped
public class SpacePayers {

    /** An account not archived and, for a personal one, its user. */
    public record SpacePayer(long accountId, String slug, boolean personal, Long userId) {
        static SpacePayer of(Object[] r) {
            boolean personal = "personal".equals(r[2]);
            return new SpacePayer(
                    Sql.longOf(r[0]), (String) r[1], personal, personal && r[3] != null ? Sql.longOf(r[3]) : null);
        }

        /** The space's folder under the spaces root. */
        public String folder() {
            return personal ? "users/" + slug.substring(2) : "accounts/" + slug;
        }

        /** The key the file API keeps the space's usage under. */
        public String space() {
            return personal ? "user:" + slug.substring(2) : "account:" + slug;
        }
    }

    /** Every payer, in the caller's session. */
    public Uni<List<SpacePayer>> all() {
        return Sql.rows(
                        "SELECT a.id, a.slug, a.kind, (SELECT m.user_id FROM account_members m WHERE m.account_id = a.id"
                                + " AND m.role = 'admin' ORDER BY m.user_id LIMIT 1) FROM accounts a"
                                + " WHERE a.archived_at IS NULL ORDER BY a.id")
                .map(rows -> rows.stream()
                        .map(SpacePayer::of)
                        .filter(p -> !p.personal() || (p.slug().startsWith("u-") && p.userId() != null))
                        .toList());
    }
}
