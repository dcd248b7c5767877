package io.crater;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
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

    @Test
    void admissionSitsAboveJobs() {
        noClasses()
                .that()
                .resideInAnyPackage("io.crater.job..", "io.crater.account..", "io.crater.cluster..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.crater.admission..")
                .because("admission decides over jobs, quotas and nodes; they wake it through NOTIFY, never by a call")
                .check(CRATER);
    }

    @Test
    void admissionReachesJobsOnlyThroughTheirAdmissionSeam() {
        noClasses()
                .that()
                .resideInAPackage("io.crater.admission..")
                .should()
                .dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.crater.job..")
                        .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(
                                io.crater.job.JobAdmissions.class,
                                io.crater.job.JobsConfig.class,
                                io.crater.job.TimeLimitService.class))))
                .because("the jobs tables are the job feature's: admission reads and writes them through JobAdmissions")
                .check(CRATER);
    }

    @Test
    void featuresDependOnEachOtherWithoutCycles() {
        // The boot wiring in platform still starts the simulator; it is the one edge ignored until sim is fenced.
        slices().matching("io.crater.(*)..")
                .should()
                .beFreeOfCycles()
                .ignoreDependency(
                        JavaClass.Predicates.resideInAPackage("io.crater.platform"),
                        JavaClass.Predicates.resideInAPackage("io.crater.sim.."))
                .check(CRATER);
    }

    @Test
    void identityAndPlatformRecordThroughTheAuditTrailInterface() {
        noClasses()
                .that()
                .resideInAnyPackage("io.crater.identity..", "io.crater.platform..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.crater.audit..", "io.crater.account..")
                .because("audit and account sit above identity: identity records through platform.AuditTrail and"
                        + " announces new users through UserCreated")
                .check(CRATER);
    }

    @Test
    void resourcesRunNoSql() {
        noClasses()
                .that()
                .haveSimpleNameEndingWith("Resource")
                .should()
                .dependOnClassesThat()
                .belongToAnyOf(io.crater.platform.Sql.class, org.hibernate.reactive.mutiny.Mutiny.Session.class)
                .because("a resource calls its feature's service or queries; SQL lives with the tables' owner")
                .check(CRATER);
    }
}
