import { ComingSoon } from "../../components/coming-soon";

export default function TodolistPage() {
  return <ComingSoon titleKey="menu.todolist" />;
}
