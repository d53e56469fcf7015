import { useEffect } from "react";
import { ToastContainer } from "react-toastify";
import "react-toastify/dist/ReactToastify.css";

/** The toasts' container; `onMounted` runs once it listens (its child's effects run first). */
export default function AppToastContainer({ onMounted }: { onMounted(): void }) {
  useEffect(() => onMounted(), [onMounted]);
  return <ToastContainer position="top-right" autoClose={2000} newestOnTop />;
}
