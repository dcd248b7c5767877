package io.crater.identity;

import io.crater.platform.Sql;

/** How a user selected by {@link UserService#COLUMNS} reads. */
final class UserRows {
    private UserRows() {}

    static UserView of(Object[] r) {
        return new UserView(
                Sql.longOf(r[0]),
                (String) r[1],
                (String) r[2],
                ((Number) r[3]).intValue(),
                (String) r[4],
                (String) r[5],
                (String) r[6],
                (Boolean) r[7],
                Sql.instant(r[8]),
                (String) r[9]);
    }
}
