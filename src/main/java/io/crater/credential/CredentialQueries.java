package io.crater.credential;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** The credentials feature's SQL: only its own table, each row read by a named mapper. */
@ApplicationScoped
class CredentialQueries {

    /** A credential's listed columns. */
    record Listed(CredentialViews.Credential view) {
        static final String COLUMNS = "name, kind, host, username, description, created_at, updated_at, last_used_at";

        static Listed of(Object[] r) {
            return new Listed(new CredentialViews.Credential(
                    (String) r[0],
                    (String) r[1],
                    (String) r[2],
                    (String) r[3],
                    (String) r[4],
                    Sql.instant(r[5]),
                    Sql.instant(r[6]),
                    Sql.instant(r[7])));
        }
    }

    /** A credential's name and sealed value. */
    record Sealed(String name, String sealedValue) {
        static Sealed of(Object[] r) {
            return new Sealed((String) r[0], (String) r[1]);
        }
    }

    /** A registry credential's name, sealed value and username. */
    record RegistryRow(String name, String sealedValue, String username) {
        static RegistryRow of(Object[] r) {
            return new RegistryRow((String) r[0], (String) r[1], (String) r[2]);
        }
    }

    Uni<List<CredentialViews.Credential>> list(long userId) {
        return Sql.rows("SELECT " + Listed.COLUMNS + " FROM credentials WHERE user_id = ?1 ORDER BY name", userId)
                .map(rows -> rows.stream().map(r -> Listed.of(r).view()).toList());
    }

    Uni<Optional<CredentialViews.Credential>> get(long userId, String name) {
        return Sql.row("SELECT " + Listed.COLUMNS + " FROM credentials WHERE user_id = ?1 AND name = ?2", userId, name)
                .map(r -> r.map(x -> Listed.of(x).view()));
    }

    /** Inserts unless the user has a credential of that name; whether it did. */
    Uni<Boolean> insert(
            long userId, String name, String kind, String host, String username, String description, String sealed) {
        return Sql.update(
                        "INSERT INTO credentials (user_id, name, kind, host, username, description, sealed_value)"
                                + " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT ON CONSTRAINT credentials_owner_name"
                                + " DO NOTHING",
                        userId,
                        name,
                        kind,
                        host,
                        username,
                        description,
                        sealed)
                .map(n -> n > 0);
    }

    Uni<Integer> replace(long userId, String name, String sealed, String description, String host, String username) {
        return Sql.update(
                "UPDATE credentials SET sealed_value = ?3, description = COALESCE(?4, description),"
                        + " host = COALESCE(?5, host), username = COALESCE(?6, username), updated_at = now()"
                        + " WHERE user_id = ?1 AND name = ?2",
                userId,
                name,
                sealed,
                description,
                host,
                username);
    }

    Uni<Integer> delete(long userId, String name) {
        return Sql.update("DELETE FROM credentials WHERE user_id = ?1 AND name = ?2", userId, name);
    }

    /** Of these names, the ones the user has. */
    Uni<List<String>> names(long userId, Collection<String> names) {
        if (names.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Sql.strings(
                "SELECT name FROM credentials WHERE user_id = ?1 AND name IN (" + after(1, names.size()) + ")",
                params(userId, names));
    }

    /** The sealed values of these names, marked used now. */
    Uni<List<Sealed>> use(long userId, Collection<String> names) {
        if (names.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Sql.rows(
                        "UPDATE credentials SET last_used_at = now() WHERE user_id = ?1 AND name IN ("
                                + after(1, names.size()) + ") RETURNING name, sealed_value",
                        params(userId, names))
                .map(rows -> rows.stream().map(Sealed::of).toList());
    }

    /** The user's registry credential for one of these hosts (the first by name), marked used now. */
    Uni<Optional<RegistryRow>> useRegistry(long userId, Collection<String> hosts) {
        return Sql.row(
                        "UPDATE credentials SET last_used_at = now() WHERE id = (SELECT id FROM credentials WHERE user_id = ?1"
                                + " AND kind = 'registry' AND lower(host) = ANY (string_to_array(lower(?2), ','))"
                                + " ORDER BY name LIMIT 1) RETURNING name, sealed_value, username",
                        userId,
                        String.join(",", hosts))
                .map(r -> r.map(RegistryRow::of));
    }

    /** Placeholders {@code ?(skip+1), ...} for {@code n} values after {@code skip} others. */
    private static String after(int skip, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            sb.append(i == 1 ? "?" : ", ?").append(skip + i);
        }
        return sb.toString();
    }

    private static Object[] params(long userId, Collection<String> names) {
        Object[] out = new Object[names.size() + 1];
        out[0] = userId;
        int i = 1;
        for (String n : names) {
            out[i++] = n;
        }
        return out;
    }
}
