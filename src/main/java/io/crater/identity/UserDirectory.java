package io.crater.identity;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What other features read and write of users, so that their SQL never names the users' table: a user by name,
 * people by id, the default account. Every method runs in the caller's session (or transaction).
 */
@ApplicationScoped
public class UserDirectory {

    /** A user as other features name them. */
    public record Person(long id, String username, String displayName) {
        static final String COLUMNS = "id, username, display_name";

        static Person of(Object[] r) {
            return new Person(Sql.longOf(r[0]), (String) r[1], (String) r[2]);
        }
    }

    /** The user with this username (compared case-insensitively), if there is one. */
    public Uni<Optional<Person>> byName(String username) {
        return Sql.row("SELECT " + Person.COLUMNS + " FROM users WHERE lower(username) = lower(?1)", username)
                .map(r -> r.map(Person::of));
    }

    /** The users with these ids (unknown ids are left out). */
    public Uni<Map<Long, Person>> people(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Sql.rows(
                        "SELECT " + Person.COLUMNS
                                + " FROM users WHERE id IN (SELECT unnest(string_to_array(?1, ','))::bigint)",
                        Sql.commaList(ids))
                .map(rows -> {
                    Map<Long, Person> out = new HashMap<>();
                    rows.stream().map(Person::of).forEach(p -> out.put(p.id(), p));
                    return out;
                });
    }

    /** The usernames of the users with these ids (unknown ids are left out). */
    public Uni<Map<Long, String>> usernames(Collection<Long> ids) {
        return usernames.of(
                ids,
                missing -> people(missing).map(found -> {
                    Map<Long, String> out = new HashMap<>();
                    found.forEach((id, p) -> out.put(id, p.username()));
                    return out;
                }));
    }

    /** Usernames, which never change. */
    private final io.crater.platform.ImmutableNames usernames = new io.crater.platform.ImmutableNames(100_000);

    /** The id of the user's default account, if the user exists and has one. */
    public Uni<Optional<Long>> defaultAccountId(long userId) {
        return Sql.longs(
                        "SELECT default_account_id FROM users WHERE id = ?1 AND default_account_id IS NOT NULL", userId)
                .map(ids -> ids.stream().findFirst());
    }

    /** Makes the account the user's default. */
    public Uni<Void> setDefaultAccount(long userId, long accountId) {
        return Sql.update("UPDATE users SET default_account_id = ?1 WHERE id = ?2", accountId, userId)
                .replaceWithVoid();
    }

    /** A user's username and id. */
    record NameId(String name, long id) {
        static NameId of(Object[] r) {
            return new NameId((String) r[0], Sql.longOf(r[1]));
        }
    }

    /** The ids of users by username (case-insensitive; unknown names are left out). */
    public Uni<Map<String, Long>> idsOf(Collection<String> usernames) {
        if (usernames.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Sql.rows(
                        "SELECT username, id FROM users WHERE lower(username) = ANY (string_to_array(lower(?1), ','))",
                        String.join(",", usernames))
                .map(rows -> {
                    Map<String, Long> out = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                    rows.stream().map(NameId::of).forEach(n -> out.put(n.name(), n.id()));
                    return out;
                });
    }
}
