// A legacy-protocol client, written as the original Java ones: DataOutputStream / DataInputStream.
// Commands on stdin, one a line: SIGNON name | SETUP id x y | READY | MOVE x0 y0 x1 y1.
// Every server frame is printed on stdout as one line: its type, then its payload, tab-separated.
import java.io.*;
import java.net.Socket;

public class LegacyClient {
    public static void main(String[] args) throws Exception {
        Socket socket = new Socket(args[0], Integer.parseInt(args[1]));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        Thread reader = new Thread(() -> readFrames(in));
        reader.setDaemon(true);
        reader.start();
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = commands.readLine()) != null) {
            String[] w = line.trim().split(" ");
            switch (w[0]) {
                case "SIGNON": out.writeInt(1); out.writeUTF(w[1]); break;
                case "SETUP":
                    out.writeInt(2); out.writeChar(w[1].charAt(0));
                    out.writeInt(Integer.parseInt(w[2])); out.writeInt(Integer.parseInt(w[3]));
                    break;
                case "READY": out.writeInt(3); out.writeUTF("ready"); break;
                case "MOVE":
                    out.writeInt(4);
                    for (int i = 1; i <= 4; i++) out.writeInt(Integer.parseInt(w[i]));
                    break;
                default: System.err.println("unknown command " + line);
            }
            out.flush();
        }
        socket.close();
    }

    static void readFrames(DataInputStream in) {
        try {
            while (true) {
                int type = in.readInt();
                StringBuilder line = new StringBuilder().append(type);
                if (type == 6) {
                    for (int i = 0; i < 4; i++) line.append('\t').append(in.readInt());
                } else if (type == 7) {
                    line.append('\t');
                    for (int i = 0; i < 100; i++) line.append(in.readChar());
                } else if (type == 9) {
                    line.append('\t').append(in.readUTF());
                    line.append('\t').append(in.readChar()).append('\t').append(in.readChar());
                } else {
                    line.append('\t').append(in.readUTF());
                }
                System.out.println(line);
                System.out.flush();
            }
        } catch (IOException e) {
            System.out.println("CLOSED");
            System.out.flush();
        }
    }
}
