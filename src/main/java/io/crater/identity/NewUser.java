package io.crater.identity;

import java.util.List;

/** A new user checked and ready to insert: normalized fields and the password's hash. */
record NewUser(
        String username,
        String displayName,
        String email,
        String role,
        String password,
        String hash,
        boolean generated,
        List<UserCreated.AccountRole> accounts) {

    NewUser(
            String username,
            String displayName,
            String email,
            String role,
            String password,
            String hash,
            boolean generated) {
        this(username, displayName, email, role, password, hash, generated, List.of());
    }

    NewUser withAccounts(List<UserCreated.AccountRole> joined) {
        return new NewUser(username, displayName, email, role, password, hash, generated, joined);
    }
}
