package io.crater.account;

import io.crater.identity.DirectoryGrants;
import io.crater.platform.Actor;
import io.crater.platform.AuditTrail;
import io.crater.platform.Sql;
import io.crater.policy.DirectorySync;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The memberships a directory grants: read with who granted them, and changed only where the directory granted
 * them. A membership granted by hand ({@code manual}) is never removed or changed by a directory sync.
 */
@ApplicationScoped
class DirectoryMemberships implements DirectoryGrants {

    @Inject
    AuditTrail audit;

    /** One membership row as the sync reads it. */
    private record GrantRow(long userId, String account, String role, String grantedBy) {
        static final String COLUMNS = "m.user_id, a.slug, m.role, m.granted_by";

        static GrantRow of(Object[] r) {
            return new GrantRow(Sql.longOf(r[0]), (String) r[1], (String) r[2], (String) r[3]);
        }
    }

    @Override
    public Uni<Map<Long, List<DirectorySync.Membership>>> teamMemberships(Collection<Long> userIds) {
        if (userIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Sql.rows(
                        "SELECT " + GrantRow.COLUMNS + " FROM account_members m JOIN accounts a ON a.id = m.account_id"
                                + " WHERE a.kind = 'team' AND m.user_id IN (SELECT unnest(string_to_array(?1, ','))::bigint)"
                                + " ORDER BY a.slug",
                        Sql.commaList(userIds))
                .map(rows -> {
                    Map<Long, List<DirectorySync.Membership>> out = new HashMap<>();
                    rows.stream()
                            .map(GrantRow::of)
                            .forEach(g -> out.computeIfAbsent(g.userId(), k -> new ArrayList<>())
                                    .add(new DirectorySync.Membership(g.account(), g.role(), g.grantedBy())));
                    return out;
                });
    }

    @Override
    public Uni<Map<DirectorySync.Kind, Integer>> apply(String source, List<DirectorySync.Change> changes, Actor actor) {
        Map<DirectorySync.Kind, Integer> done = new EnumMap<>(DirectorySync.Kind.class);
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (DirectorySync.Change c : changes) {
            chain = chain.flatMap(v -> one(source, c, actor).map(n -> {
                done.merge(c.kind(), n, Integer::sum);
                return null;
            }));
        }
        return chain.map(v -> done);
    }

    private Uni<Integer> one(String source, DirectorySync.Change c, Actor actor) {
        String team = "(SELECT id FROM accounts WHERE slug = ?1 AND kind = 'team' AND archived_at IS NULL)";
        Uni<Integer> changed = switch (c.kind()) {
            case ADD ->
                Sql.update(
                        "INSERT INTO account_members (account_id, user_id, role, granted_by) SELECT id, ?2, ?3, ?4"
                                + " FROM accounts WHERE slug = ?1 AND kind = 'team' AND archived_at IS NULL"
                                + " ON CONFLICT (account_id, user_id) DO NOTHING",
                        c.account(),
                        c.userId(),
                        c.role(),
                        source);
            case ROLE ->
                Sql.update(
                        "UPDATE account_members SET role = ?3 WHERE account_id = " + team
                                + " AND user_id = ?2 AND granted_by = ?4",
                        c.account(),
                        c.userId(),
                        c.role(),
                        source);
            case REMOVE ->
                Sql.update(
                                "DELETE FROM member_limits WHERE account_id = " + team + " AND user_id = ?2"
                                        + " AND EXISTS (SELECT 1 FROM account_members m WHERE m.account_id = "
                                        + "member_limits.account_id AND m.user_id = ?2 AND m.granted_by = ?3)",
                                c.account(),
                                c.userId(),
                                source)
                        .flatMap(x -> Sql.update(
                                "DELETE FROM account_members WHERE account_id = (SELECT id FROM accounts WHERE slug = ?1)"
                                        + " AND user_id = ?2 AND granted_by = ?3",
                                c.account(),
                                c.userId(),
                                source));
        };
        return changed.call(n -> n == 0
                ? Uni.createFrom().voidItem()
                : audit.record(
                        new Actor(actor.userId(), actor.username(), actor.clientAddress(), c.account()),
                        switch (c.kind()) {
                            case ADD -> "member.add";
                            case ROLE -> "member.update";
                            case REMOVE -> "member.remove";
                        },
                        "member",
                        c.account() + "/" + c.username(),
                        null,
                        Map.of("role", c.role(), "grantedBy", source)));
    }
}
