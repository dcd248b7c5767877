package io.crater.identity;

import io.crater.platform.Actor;
import io.crater.platform.Problem;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What other features do when a user is created, in the same transaction: the account feature gives every new
 * user a personal account and adds them to the team accounts they were created into. Identity calls each
 * implementation and knows none of them; a failure rolls the whole creation back.
 */
public interface UserCreated {

    /** A team account the new user joins, and their role there ({@code member} or {@code admin}). */
    record AccountRole(String account, String role) {}

    /**
     * @param accounts the team accounts to join, checked by {@link #check}; an implementation refuses one that does
     *     not exist with a 400 naming {@code accounts[i].account}
     */
    Uni<?> userCreated(
            long userId, String username, String userSlug, String displayName, List<AccountRole> accounts, Actor actor);

    /** The field errors of the requested memberships: a slug and a known role each, no account twice. */
    static List<Problem.FieldError> check(List<AccountRole> accounts) {
        List<Problem.FieldError> errors = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; accounts != null && i < accounts.size(); i++) {
            AccountRole a = accounts.get(i);
            String field = "accounts[" + i + "]";
            if (a == null || a.account() == null || a.account().isBlank()) {
                errors.add(new Problem.FieldError(field + ".account", "required"));
                continue;
            }
            if (!seen.add(a.account().trim())) {
                errors.add(new Problem.FieldError(field + ".account", "named twice"));
            }
            if (!"member".equals(a.role()) && !"admin".equals(a.role())) {
                errors.add(new Problem.FieldError(field + ".role", "member or admin"));
            }
        }
        return errors;
    }
}
