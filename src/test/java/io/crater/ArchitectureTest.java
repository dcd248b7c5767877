package io.crater;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The layering the design relies on, enforced by the build. */
class ArchitectureTest {

    static final JavaClasses CRATER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.crater");

    @Test
    void policyIsPureJava() {
        noClasses()
                .that()
                .resideInAPackage("io.crater.policy..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.quarkus..",
                        "io.smallrye..",
                        "io.fabric8..",
                        "jakarta..",
                        "javax..",
                        "org.hibernate..",
                        "io.vertx..",
                        "org.jboss..")
                .because("policy decides from immutable snapshots and must be testable without any framework")
                .check(CRATER);
    }

    @Test
    void policyDependsOnNoOtherCraterPackage() {
        noClasses()
                .that()
                .resideInAPackage("io.crater.policy..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages("io.crater.policy..", "java..")
                .check(CRATER);
    }

    @Test
    void resourcesNeverTouchRepositoriesOrTheKubernetesClient() {
        noClasses()
                .that()
                .haveSimpleNameEndingWith("Resource")
                .should()
                .dependOnClassesThat()
                .haveSimpleNameEndingWith("Repository")
                .orShould()
                .dependOnClassesThat()
                .resideInAPackage("io.fabric8.kubernetes.client..")
                .because("resources call services; services own transactions and cluster calls")
                .check(CRATER);
    }
}
