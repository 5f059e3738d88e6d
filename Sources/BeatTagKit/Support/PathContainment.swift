/// Path prefix tests on whole components: /music/a is inside /music, /musicals is not.
extension String {
    func isInside(folder: String) -> Bool {
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        return self == folder || hasPrefix(base)
    }
}
