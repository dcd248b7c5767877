package io.crater.identity;

import io.crater.notify.Addresses;
import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/** Users' mail addresses for notifications: the e-mail and the display name (the username when blank). */
@ApplicationScoped
public class UserAddresses implements Addresses {

    /** A user's id with their address. */
    record Row(long id, Address address) {
        static Row of(Object[] r) {
            return new Row(Sql.longOf(r[0]), new Address((String) r[1], (String) r[2]));
        }
    }

    @Override
    public Uni<Map<Long, Address>> of(Collection<Long> userIds) {
        if (userIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Sql.rows(
                        "SELECT id, email, coalesce(nullif(display_name, ''), username) FROM users"
                                + " WHERE id IN (SELECT unnest(string_to_array(?1, ','))::bigint)",
                        Sql.commaList(userIds))
                .map(rows -> {
                    Map<Long, Address> out = new HashMap<>();
                    rows.stream().map(Row::of).forEach(r -> out.put(r.id(), r.address()));
                    return out;
                });
    }
}
