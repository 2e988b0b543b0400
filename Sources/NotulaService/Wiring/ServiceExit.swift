/// A step of the start that cannot go on: the exit status notulad ends with, its reason already in the journal.
struct ServiceExit: Error {
    let status: Int32
}
