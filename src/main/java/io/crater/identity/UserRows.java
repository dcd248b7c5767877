package io.crater.identity;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;

/**
 * How a user selected by {@link UserService#COLUMNS} reads: the view without its default account's slug, which
 * accounts name ({@link #named}), and that account's id.
 */
record UserRows(UserView view, Long defaultAccountId) {

    static UserRows of(Object[] r) {
        return new UserRows(
                new UserView(
                        Sql.longOf(r[0]),
                        (String) r[1],
                        (String) r[2],
                        ((Number) r[3]).intValue(),
                        (String) r[4],
                        (String) r[5],
                        (String) r[6],
                        (Boolean) r[7],
                        Sql.instant(r[8]),
                        null,
                        r[10] == null ? null : ((Number) r[10]).intValue()),
                r[9] == null ? null : Sql.longOf(r[9]));
    }

    /** The users of these rows with their default accounts' slugs, which accounts name, in the caller's session. */
    static Uni<List<UserView>> views(List<Object[]> rows, UserAccounts accounts) {
        List<UserRows> found = rows.stream().map(UserRows::of).toList();
        return accounts.slugs(found.stream()
                        .map(UserRows::defaultAccountId)
                        .filter(java.util.Objects::nonNull)
                        .collect(java.util.stream.Collectors.toSet()))
                .map(slugs -> found.stream().map(u -> u.named(slugs)).toList());
    }

    /** The view with its default account's slug. */
    UserView named(Map<Long, String> slugs) {
        UserView v = view;
        return new UserView(
                v.id(),
                v.username(),
                v.slug(),
                v.uid(),
                v.displayName(),
                v.email(),
                v.role(),
                v.disabled(),
                v.createdAt(),
                defaultAccountId == null ? null : slugs.get(defaultAccountId),
                v.gid());
    }
}
