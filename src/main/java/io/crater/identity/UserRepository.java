package io.crater.identity;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Users by id and by case-insensitive username. */
@ApplicationScoped
public class UserRepository implements PanacheRepositoryBase<UserEntity, Long> {

    public Uni<UserEntity> findByUsername(String username) {
        return find("lower(username) = lower(?1)", username).firstResult();
    }
}
