/// Words of the commands that fixes and hints suggest, quoted so that pasting the command into a POSIX
/// shell passes each as one argument: real target names hold spaces and parentheses (`flash (iOS)`), and
/// paths spaces (`Supporting Files`).
package enum ShellWord {
  /// `word` as is when every character is one no shell treats specially, else in single quotes (a single
  /// quote inside written `'\''`).
  package static func quoted(_ word: String) -> String {
    let plain =
      !word.isEmpty
      && word.unicodeScalars.allSatisfy { scalar in
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "@", "%", "+", "=", ":", ",", ".", "/", "_", "-": true
        default: false
        }
      }
    return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
  }
}
