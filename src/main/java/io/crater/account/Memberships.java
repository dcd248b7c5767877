package io.crater.account;

import io.crater.identity.MeResource;
import io.crater.platform.PgNotifications;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which accounts each streaming user belongs to, held in memory so that live events can be filtered without a
 * query per event. Loaded when a user subscribes; kept exact afterwards by the {@code crater_members}
 * notifications a trigger sends at every commit that adds or removes a member, on any replica. A user whose
 * accounts are not loaded is a member of nothing (events are withheld, never leaked).
 */
@ApplicationScoped
public class Memberships implements io.crater.identity.UserAccounts {

    @Inject
    PgNotifications notifications;

    private final Map<Long, Set<Long>> accounts = new ConcurrentHashMap<>();
    /** Changes seen per user, so that a load racing with a change is done again. */
    private final Map<Long, Long> changes = new ConcurrentHashMap<>();

    void onStart(@Observes @Priority(45) StartupEvent event) {
        notifications.listen("crater_members", this::changed);
        // Notifications sent while the listening connection was down are lost: forget everything, reload lazily.
        notifications.onReconnect(accounts::clear);
    }

    /** Loads (or reloads) the accounts of a user; call before relying on {@link #isMember}. */
    public Uni<Set<Long>> load(long userId) {
        long seen = changes.getOrDefault(userId, 0L);
        return Panache.withSession(() -> Sql.longs("SELECT account_id FROM account_members WHERE user_id = ?1", userId))
                .flatMap(rows -> {
                    if (changes.getOrDefault(userId, 0L) != seen) {
                        return load(userId);
                    }
                    Set<Long> ids = ConcurrentHashMap.newKeySet();
                    ids.addAll(rows);
                    accounts.put(userId, ids);
                    return Uni.createFrom().item(Set.copyOf(ids));
                });
    }

    @Override
    public Uni<List<MeResource.Membership>> of(long userId) {
        return Sql.rows(
                        "SELECT " + MembershipRow.COLUMNS + " FROM account_members m"
                                + " JOIN accounts a ON a.id = m.account_id WHERE m.user_id = ?1 ORDER BY a.kind DESC, a.slug",
                        userId)
                .map(rows -> rows.stream().map(r -> MembershipRow.of(r).view()).toList());
    }

    /** Accounts' slugs, which never change. */
    private final io.crater.platform.ImmutableNames slugs = new io.crater.platform.ImmutableNames(100_000);

    @Override
    public Uni<Map<Long, String>> slugs(java.util.Collection<Long> accountIds) {
        if (accountIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return slugs.of(
                accountIds,
                missing -> Sql.rows(
                                "SELECT id, slug FROM accounts WHERE id IN (SELECT unnest(string_to_array(?1,"
                                        + " ','))::bigint)",
                                Sql.commaList(missing))
                        .map(rows -> {
                            Map<Long, String> out = new java.util.HashMap<>();
                            rows.stream().map(AccountService.IdSlug::of).forEach(a -> out.put(a.id(), a.slug()));
                            return out;
                        }));
    }

    @Override
    public Uni<Map<String, Long>> activeTeams(java.util.Collection<String> slugs) {
        if (slugs.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Sql.rows(
                        "SELECT id, slug FROM accounts WHERE kind = 'team' AND archived_at IS NULL"
                                + " AND slug IN (SELECT unnest(string_to_array(?1, ',')))",
                        String.join(",", slugs))
                .map(rows -> {
                    Map<String, Long> out = new java.util.HashMap<>();
                    rows.stream().map(AccountService.IdSlug::of).forEach(a -> out.put(a.slug(), a.id()));
                    return out;
                });
    }

    /** A membership as {@code /api/v1/me} shows it. */
    private record MembershipRow(
            String slug, String name, String kind, String role, String fileAccess, Instant expiresAt) {
        static final String COLUMNS = "a.slug, a.name, a.kind, m.role, m.file_access, a.expires_at";

        static MembershipRow of(Object[] r) {
            return new MembershipRow(
                    (String) r[0], (String) r[1], (String) r[2], (String) r[3], (String) r[4], Sql.instant(r[5]));
        }

        MeResource.Membership view() {
            return new MeResource.Membership(slug, name, kind, role, fileAccess, expiresAt);
        }
    }

    /** Whether the user is a member of the account, as far as the loaded memberships know. */
    public boolean isMember(long userId, long accountId) {
        Set<Long> ids = accounts.get(userId);
        return ids != null && ids.contains(accountId);
    }

    /** Payload {@code INSERT|UPDATE|DELETE:<user>:<account>}. */
    void changed(String payload) {
        String[] parts = payload.split(":");
        if (parts.length != 3) {
            return;
        }
        long user = Long.parseLong(parts[1]);
        long account = Long.parseLong(parts[2]);
        changes.merge(user, 1L, Long::sum);
        Set<Long> ids = accounts.get(user);
        if (ids == null) {
            return;
        }
        if (parts[0].equals("DELETE")) {
            ids.remove(account);
        } else {
            ids.add(account);
        }
    }

    /** The ids of accounts by slug (unknown slugs are left out). */
    public Uni<Map<String, Long>> idsOf(java.util.Collection<String> slugs) {
        if (slugs.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Sql.rows(
                        "SELECT id, slug FROM accounts WHERE slug = ANY (string_to_array(?1, ','))",
                        String.join(",", slugs))
                .map(rows -> {
                    Map<String, Long> out = new java.util.HashMap<>();
                    rows.stream().map(AccountService.IdSlug::of).forEach(a -> out.put(a.slug(), a.id()));
                    return out;
                });
    }
}
